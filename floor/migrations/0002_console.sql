-- The supervisors' console: accounts (Argon2 hashes), sessions (only a hash of each cookie's token), and the record
-- of every action taken in the console (append-only). The console reads the store and may clear alerts only.

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'floor_console') THEN
        CREATE ROLE floor_console NOLOGIN;
    END IF;
END
$$;
GRANT floor_reader TO floor_console;

CREATE TABLE console_accounts (
    name           text PRIMARY KEY,
    password_hash  text NOT NULL,                    -- argon2id, salted
    role           text NOT NULL CHECK (role IN ('supervisor', 'auditor', 'admin')),
    failed_tries   integer NOT NULL DEFAULT 0,       -- wrong passwords in a row
    locked_until   timestamptz,
    created_at     timestamptz NOT NULL DEFAULT now(),
    created_by     text NOT NULL
);

CREATE TABLE console_sessions (
    token_hash  text PRIMARY KEY,                    -- SHA-256 of the cookie's random token
    account     text NOT NULL REFERENCES console_accounts,
    csrf        text NOT NULL,                       -- every form of the session carries it
    language    text NOT NULL DEFAULT 'en',
    created_at  timestamptz NOT NULL DEFAULT now(),
    last_seen   timestamptz NOT NULL DEFAULT now(),
    ended_at    timestamptz
);
CREATE INDEX console_sessions_by_account ON console_sessions (account, created_at DESC);

CREATE TABLE console_actions (
    id       bigserial PRIMARY KEY,
    at       timestamptz NOT NULL DEFAULT clock_timestamp(),
    account  text NOT NULL,                          -- '-' before anyone signed in
    action   text NOT NULL,                          -- signed_in, sign_in_refused, round_reviewed, rounds_exported …
    detail   jsonb NOT NULL DEFAULT '{}'::jsonb,
    address  text NOT NULL DEFAULT ''
);
CREATE INDEX console_actions_by_time ON console_actions (at DESC);
CREATE INDEX console_actions_by_account ON console_actions (account, at DESC);

CREATE FUNCTION console_actions_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the console''s record of actions is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER console_actions_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON console_actions
    FOR EACH STATEMENT EXECUTE FUNCTION console_actions_append_only();

REVOKE ALL ON console_accounts, console_sessions, console_actions FROM PUBLIC;
GRANT SELECT, INSERT, UPDATE ON console_accounts, console_sessions TO floor_console;
GRANT SELECT, INSERT ON console_actions TO floor_console;
GRANT USAGE ON SEQUENCE console_actions_id_seq TO floor_console;
GRANT UPDATE (cleared_at, cleared_by) ON alerts TO floor_console;
GRANT EXECUTE ON FUNCTION raise_silent_alerts(interval) TO floor_console;
