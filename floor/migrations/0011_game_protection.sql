-- Game protection: alerts the console raises from the floor's figures (a table or a dealer whose hold strays from
-- theory by more standard deviations than the floor allows, a seat's unusual winning run, a dealer's mis-set,
-- correction or void rate above the floor's norm), once per subject and shift; and a note with every
-- acknowledgement, kept beside who cleared an alert and when (the history stays: nothing is deleted).

ALTER TABLE alerts ADD COLUMN cleared_note text;
GRANT UPDATE (cleared_note) ON alerts TO floor_console;

CREATE TABLE protection_alerts (
    alert_id      bigserial PRIMARY KEY,
    table_id      text NOT NULL,                     -- the table it is shown on (a dealer's: where the dealer dealt)
    kind          text NOT NULL CHECK (kind IN ('hold_drift', 'dealer_drift', 'winning_run', 'dealer_rates')),
    priority      text NOT NULL CHECK (priority IN ('high', 'medium', 'low')),
    subject       text NOT NULL,                     -- what it is about: a table, a dealer, a table's seat …
    shift_start   timestamptz NOT NULL,
    params        jsonb NOT NULL DEFAULT '{}'::jsonb,  -- the figures its words name
    raised_at     timestamptz NOT NULL DEFAULT now(),
    cleared_at    timestamptz,
    cleared_by    text,
    cleared_note  text,
    UNIQUE (kind, subject, shift_start)
);
CREATE INDEX protection_alerts_open ON protection_alerts (table_id) WHERE cleared_at IS NULL;
CREATE INDEX protection_alerts_by_time ON protection_alerts (raised_at DESC);

REVOKE ALL ON protection_alerts FROM PUBLIC;
GRANT SELECT, INSERT, UPDATE ON protection_alerts TO floor_console;
GRANT USAGE ON SEQUENCE protection_alerts_alert_id_seq TO floor_console;
GRANT SELECT ON protection_alerts TO floor_reader;
