-- The floor's money settings a supervisor sets in the console (the pit card's amber and red thresholds: how many
-- percentage points a table's actual hold may stray from its theoretical hold this shift). A setting never set
-- takes the console's default.

CREATE TABLE console_settings (
    name        text PRIMARY KEY,
    value       numeric NOT NULL,
    changed_at  timestamptz NOT NULL DEFAULT now(),
    changed_by  text NOT NULL
);

REVOKE ALL ON console_settings FROM PUBLIC;
GRANT SELECT, INSERT, UPDATE ON console_settings TO floor_console;
GRANT SELECT ON console_settings TO floor_reader;
