-- Sign-in lock-out per account name and address: wrong passwords from one address lock that name at that address
-- only, so nobody can lock a supervisor out of the console from elsewhere by typing the name. Rows exist for names
-- with no account too (the answer must not tell which names exist). console_accounts' own failed_tries and
-- locked_until (0002) are no longer used.

CREATE TABLE console_sign_in_failures (
    name          text NOT NULL,                     -- as typed (at most 64 characters), account or not
    address       text NOT NULL,                     -- the client's address
    failed_tries  integer NOT NULL DEFAULT 0,        -- wrong passwords in a row from there
    locked_until  timestamptz,
    last_try      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (name, address)
);

REVOKE ALL ON console_sign_in_failures FROM PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON console_sign_in_failures TO floor_console;
