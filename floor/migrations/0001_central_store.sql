-- The central store: every kiosk's journal, one row per event keyed by (kiosk_id, seq), append-only for kiosks.
-- Kiosks write only through ingest_events() and record_anchor() (SECURITY DEFINER, owned by the migrating role),
-- which find the kiosk by session_user, check the hash chain, refuse gaps and forks (kept aside, alerted) and keep
-- the summaries the console reads (kiosks, rounds, alerts) in step, in the same transaction.

CREATE EXTENSION IF NOT EXISTS pgcrypto;

-- Group roles: created once per cluster (roles are cluster-wide), so a second database reuses them.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'floor_kiosk') THEN
        CREATE ROLE floor_kiosk NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'floor_reader') THEN
        CREATE ROLE floor_reader NOLOGIN;
    END IF;
END
$$;

CREATE TABLE tables (
    table_id    text PRIMARY KEY,
    name        text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE kiosks (
    kiosk_id       text PRIMARY KEY,
    table_id       text NOT NULL REFERENCES tables,
    role_name      text NOT NULL UNIQUE,             -- the PostgreSQL login role this kiosk ships as
    enrolled_at    timestamptz NOT NULL DEFAULT now(),
    journal_id     text,                             -- hash of event 1: which journal of the kiosk this is
    last_seq       bigint NOT NULL DEFAULT 0,        -- head of the central copy
    last_hash      text NOT NULL DEFAULT repeat('0', 64),
    last_event_at  timestamptz,                      -- the time written in the last event stored
    last_seen_at   timestamptz,                      -- the last contact (a batch or a heartbeat)
    last_kind      text,
    game           text,                             -- game of the last round begun
    open_round     bigint,                           -- round in progress, NULL between rounds
    round_step     text,                             -- last lifecycle kind of the open round
    signed_in      text,                             -- supervisor signed in at the kiosk, if any
    devices        jsonb NOT NULL DEFAULT '{}'::jsonb -- {"shaker": {"up": true, "port": ..., "reason": ...}}
);
CREATE INDEX kiosks_by_table ON kiosks (table_id);

-- The chain key of each kiosk, when the floor holds it: then every event's HMAC is checked on arrival.
-- Readable by nobody but the owner (the ingest function).
CREATE TABLE kiosk_keys (
    kiosk_id   text PRIMARY KEY REFERENCES kiosks,
    chain_key  bytea NOT NULL
);

CREATE TABLE events (
    kiosk_id      text NOT NULL REFERENCES kiosks,
    seq           bigint NOT NULL,
    table_id      text NOT NULL,
    time          timestamptz NOT NULL,
    time_text     text NOT NULL,                     -- as hashed (ISO 8601 with offset)
    mono_ns       bigint NOT NULL,
    boot_id       text NOT NULL,
    round_id      bigint,
    kind          text NOT NULL,
    payload_text  text NOT NULL,                     -- exactly as hashed (canonical JSON)
    payload       jsonb NOT NULL,                    -- the same, for queries
    prev_hash     text NOT NULL,
    hash          text NOT NULL,
    received_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kiosk_id, seq)
);
CREATE INDEX events_by_table_time ON events (table_id, time DESC);
CREATE INDEX events_by_round ON events (kiosk_id, round_id, seq) WHERE round_id IS NOT NULL;
CREATE INDEX events_flagged ON events (kind, time DESC)
    WHERE kind IN ('round_voided', 'cards_corrected', 'cards_misread', 'dice_reshaken', 'note', 'journal_checked',
                   'clock_changed', 'device_down', 'evidence_held');

CREATE TABLE rounds (
    kiosk_id      text NOT NULL REFERENCES kiosks,
    round_id      bigint NOT NULL,
    table_id      text NOT NULL,
    game          text NOT NULL,
    dealer        text,                              -- who was signed in at the kiosk when the round began
    began_at      timestamptz NOT NULL,
    ended_at      timestamptz,
    status        text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'settled', 'voided')),
    begun_seq     bigint NOT NULL,
    ended_seq     bigint,
    actions       integer NOT NULL DEFAULT 0,
    total_bet     bigint NOT NULL DEFAULT 0,         -- sum of the seats' bets (Bài Bửu); 0 where a game has none
    house_net     bigint,                            -- nets->'house' when the game has a house
    nets          jsonb,                             -- party -> chips, as settled
    corrections   integer NOT NULL DEFAULT 0,        -- cards_corrected
    misreads      integer NOT NULL DEFAULT 0,        -- cards_misread
    mis_sets      integer NOT NULL DEFAULT 0,        -- seats set against the house way / mis-set
    reshakes      integer NOT NULL DEFAULT 0,        -- dice_reshaken
    void_reason   text,
    voided_by     text,
    PRIMARY KEY (kiosk_id, round_id)
);
CREATE INDEX rounds_by_table_time ON rounds (table_id, began_at DESC);
CREATE INDEX rounds_by_time ON rounds (began_at DESC);
CREATE INDEX rounds_by_dealer ON rounds (dealer, began_at DESC) WHERE dealer IS NOT NULL;
CREATE INDEX rounds_by_status ON rounds (status, began_at DESC);
CREATE INDEX rounds_by_house_net ON rounds (house_net) WHERE house_net IS NOT NULL;
CREATE INDEX rounds_flagged ON rounds (table_id, began_at DESC)
    WHERE status = 'voided' OR corrections > 0 OR mis_sets > 0 OR misreads > 0;

CREATE TABLE alerts (
    alert_id    bigserial PRIMARY KEY,
    kiosk_id    text NOT NULL REFERENCES kiosks,
    table_id    text NOT NULL,
    kind        text NOT NULL CHECK (kind IN ('fork', 'gap', 'journal_failed', 'supervisor_called', 'silent',
                                              'void', 'anchor_mismatch')),
    seq         bigint,                              -- the event it is about, when there is one
    message     text NOT NULL,
    raised_at   timestamptz NOT NULL DEFAULT now(),
    cleared_at  timestamptz,
    cleared_by  text
);
CREATE INDEX alerts_open ON alerts (table_id, raised_at DESC) WHERE cleared_at IS NULL;
CREATE INDEX alerts_by_time ON alerts (raised_at DESC);
-- One open alert per kiosk for the states that last (a refused chain, a silent kiosk) ...
CREATE UNIQUE INDEX alerts_one_open_state ON alerts (kiosk_id, kind)
    WHERE cleared_at IS NULL AND kind IN ('fork', 'gap', 'silent', 'anchor_mismatch');
-- ... and one per event for the ones an event raises.
CREATE UNIQUE INDEX alerts_one_per_event ON alerts (kiosk_id, kind, seq)
    WHERE seq IS NOT NULL AND kind IN ('supervisor_called', 'journal_failed', 'void');

-- Events refused (a gap or a fork), kept aside as they came; never merged into events.
CREATE TABLE rejected_events (
    kiosk_id     text NOT NULL REFERENCES kiosks,
    seq          bigint NOT NULL,
    hash         text NOT NULL,
    reason       text NOT NULL,
    event        jsonb NOT NULL,
    received_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kiosk_id, seq, hash)
);

-- The chain's head each kiosk sent at a round's end (journal/anchors.py's Anchor, with its MAC).
CREATE TABLE anchors (
    kiosk_id     text NOT NULL REFERENCES kiosks,
    seq          bigint NOT NULL,
    hash         text NOT NULL,
    journal_id   text NOT NULL,
    table_id     text NOT NULL,
    time         timestamptz NOT NULL,
    why          text NOT NULL,
    mac          text NOT NULL,
    received_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kiosk_id, seq, hash)
);

-- ---- kiosk-facing functions -------------------------------------------------------------------------------

-- The header the journal hashes: chain.header_json's canonical JSON, rendered the same way (tests compare them).
CREATE FUNCTION chain_header(seq bigint, time_text text, mono_ns bigint, boot_id text, kiosk_id text,
                             table_id text, round_id bigint, kind text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT '[' || seq || ',' || to_json(time_text)::text || ',' || mono_ns || ',' || to_json(boot_id)::text || ','
        || to_json(kiosk_id)::text || ',' || to_json(table_id)::text || ',' || coalesce(round_id::text, 'null')
        || ',' || to_json(kind)::text || ']'
$$;

-- The kiosk of the login role calling (refused for any other role).
CREATE FUNCTION calling_kiosk() RETURNS kiosks
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    k kiosks;
BEGIN
    SELECT * INTO k FROM kiosks WHERE role_name = session_user;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the role % is not an enrolled kiosk: enroll it with `dealer-assist floor add-kiosk`',
            session_user USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN k;
END
$$;

-- Where the central copy of the calling kiosk ends: the shipper resumes after it.
CREATE FUNCTION kiosk_head(OUT kiosk_id text, OUT table_id text, OUT last_seq bigint, OUT last_hash text)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    k kiosks := calling_kiosk();
BEGIN
    kiosk_id := k.kiosk_id; table_id := k.table_id; last_seq := k.last_seq; last_hash := k.last_hash;
END
$$;

CREATE FUNCTION raise_alert(k kiosks, alert_kind text, alert_seq bigint, alert_message text) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    INSERT INTO alerts (kiosk_id, table_id, kind, seq, message)
    VALUES (k.kiosk_id, k.table_id, alert_kind, alert_seq, alert_message)
    ON CONFLICT DO NOTHING
$$;

-- Take a batch of the calling kiosk's events (a JSON array of journal entries, each with its payload as the exact
-- text hashed) in order. Returns {"stored", "duplicates", "head_seq", "head_hash", "refused", "refused_seq"}.
-- A resend of stored events changes nothing; the first event that does not continue the central copy (a gap, a
-- fork, content that does not match its hash) stops the batch: it and the rest are kept aside, an alert is raised,
-- and what came before it is stored.
CREATE FUNCTION ingest_events(batch jsonb) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    k kiosks;
    ev jsonb;
    chain_key bytea;
    pos integer := 0;
    s bigint;
    h text;
    p text;
    body text;
    r bigint;
    old events%ROWTYPE;
    stored integer := 0;
    dups integer := 0;
    refused text;
    refused_kind text;
    refused_seq bigint;
    refused_pos integer;
    moment timestamptz;
BEGIN
    SELECT * INTO k FROM kiosks WHERE role_name = session_user FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the role % is not an enrolled kiosk: enroll it with `dealer-assist floor add-kiosk`',
            session_user USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF jsonb_typeof(batch) IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'a batch is a JSON array of events' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT kk.chain_key INTO chain_key FROM kiosk_keys kk WHERE kk.kiosk_id = k.kiosk_id;
    FOR ev IN SELECT value FROM jsonb_array_elements(batch) LOOP
        pos := pos + 1;
        IF ev->>'kiosk_id' IS DISTINCT FROM k.kiosk_id OR ev->>'table_id' IS DISTINCT FROM k.table_id THEN
            RAISE EXCEPTION 'kiosk % may ship only its own events (kiosk %, table %), not an event of kiosk % at '
                'table %', k.kiosk_id, k.kiosk_id, k.table_id, ev->>'kiosk_id', ev->>'table_id'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        s := (ev->>'seq')::bigint;
        h := ev->>'hash';
        p := ev->>'prev_hash';
        body := ev->>'payload';
        r := (ev->>'round_id')::bigint;
        IF s IS NULL OR h IS NULL OR p IS NULL OR body IS NULL THEN
            RAISE EXCEPTION 'event % of the batch lacks seq, hash, prev_hash or payload', pos
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
        IF s <= k.last_seq THEN
            SELECT * INTO old FROM events e WHERE e.kiosk_id = k.kiosk_id AND e.seq = s;
            IF old.hash = h AND old.prev_hash = p AND old.payload_text = body AND old.time_text = ev->>'time'
               AND old.kind = ev->>'kind' AND old.round_id IS NOT DISTINCT FROM r THEN
                dups := dups + 1;
                CONTINUE;
            END IF;
            refused_kind := 'fork';
            refused := format('event %s of the kiosk''s journal differs from the copy the floor received: the '
                'journal was altered, or restored from an older copy, after it was shipped; the central copy '
                'stands', s);
        ELSIF s > k.last_seq + 1 THEN
            refused_kind := 'gap';
            refused := format('events %s to %s never arrived (the kiosk sent event %s next): the kiosk''s '
                'journal lost them, or it is another journal', k.last_seq + 1, s - 1, s);
        ELSIF p <> k.last_hash THEN
            refused_kind := 'fork';
            refused := format('event %s does not continue the copy the floor holds (event %s''s hash differs): '
                'the journal was rewritten or replaced; the central copy stands', s, s - 1);
        ELSIF chain_key IS NOT NULL AND encode(hmac(convert_to(p || E'\n' || chain_header(s, ev->>'time',
                (ev->>'mono_ns')::bigint, ev->>'boot_id', k.kiosk_id, k.table_id, r, ev->>'kind') || E'\n'
                || body, 'UTF8'), chain_key, 'sha256'), 'hex') <> h THEN
            refused_kind := 'fork';
            refused := format('event %s does not match its hash under the kiosk''s key: it was altered before '
                'it was shipped', s);
        END IF;
        IF refused IS NOT NULL THEN
            refused_seq := s;
            refused_pos := pos;
            EXIT;
        END IF;
        moment := (ev->>'time')::timestamptz;
        INSERT INTO events (kiosk_id, seq, table_id, time, time_text, mono_ns, boot_id, round_id, kind,
                            payload_text, payload, prev_hash, hash)
        VALUES (k.kiosk_id, s, k.table_id, moment, ev->>'time', (ev->>'mono_ns')::bigint, ev->>'boot_id', r,
                ev->>'kind', body, body::jsonb, p, h);
        PERFORM summarise_event(k, s, moment, r, ev->>'kind', body::jsonb);
        IF s = 1 THEN
            k.journal_id := h;
        END IF;
        k.last_seq := s;
        k.last_hash := h;
        k.last_event_at := moment;
        k.last_kind := ev->>'kind';
        stored := stored + 1;
    END LOOP;
    UPDATE kiosks SET last_seq = k.last_seq, last_hash = k.last_hash, last_event_at = k.last_event_at,
                      last_kind = k.last_kind, journal_id = k.journal_id, last_seen_at = now()
    WHERE kiosk_id = k.kiosk_id;
    UPDATE alerts SET cleared_at = now(), cleared_by = 'the kiosk is heard again'
    WHERE kiosk_id = k.kiosk_id AND kind = 'silent' AND cleared_at IS NULL;
    IF stored > 0 AND EXISTS (SELECT 1 FROM anchors a JOIN events e USING (kiosk_id, seq)
                              WHERE a.kiosk_id = k.kiosk_id AND a.seq > k.last_seq - stored AND a.hash <> e.hash) THEN
        PERFORM raise_alert(k, 'anchor_mismatch', NULL, 'the kiosk anchored an event with another hash than the '
            'copy the floor received: its journal was rewritten; the central copy stands');
    END IF;
    IF refused IS NOT NULL THEN
        INSERT INTO rejected_events (kiosk_id, seq, hash, reason, event)
        SELECT k.kiosk_id, coalesce((value->>'seq')::bigint, -1), coalesce(value->>'hash', ''), refused, value
        FROM jsonb_array_elements(batch) WITH ORDINALITY AS t(value, n)
        WHERE n >= refused_pos
        ON CONFLICT DO NOTHING;
        PERFORM raise_alert(k, refused_kind, refused_seq, refused);
    END IF;
    RETURN jsonb_build_object('stored', stored, 'duplicates', dups, 'head_seq', k.last_seq,
                              'head_hash', k.last_hash, 'refused', refused, 'refused_seq', refused_seq);
END
$$;

-- Keeps kiosks, rounds and alerts in step with one stored event (called by ingest_events only).
CREATE FUNCTION summarise_event(k kiosks, s bigint, moment timestamptz, r bigint, event_kind text, body jsonb)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    CASE event_kind
    WHEN 'round_begun' THEN
        INSERT INTO rounds (kiosk_id, round_id, table_id, game, dealer, began_at, begun_seq)
        VALUES (k.kiosk_id, r, k.table_id, body->>'game', (SELECT signed_in FROM kiosks WHERE kiosk_id = k.kiosk_id),
                moment, s)
        ON CONFLICT DO NOTHING;
        UPDATE kiosks SET game = body->>'game', open_round = r, round_step = event_kind WHERE kiosk_id = k.kiosk_id;
    WHEN 'action_recorded' THEN
        UPDATE rounds SET actions = actions + 1,
            total_bet = total_bet + CASE WHEN jsonb_typeof(body->'action'->'bet') = 'number'
                                         THEN (body->'action'->>'bet')::bigint ELSE 0 END,
            mis_sets = mis_sets + CASE WHEN body->>'description' LIKE '%mis-set%' THEN 1 ELSE 0 END
        WHERE kiosk_id = k.kiosk_id AND round_id = r;
        UPDATE kiosks SET round_step = event_kind WHERE kiosk_id = k.kiosk_id;
    WHEN 'cards_corrected' THEN
        UPDATE rounds SET corrections = corrections + 1 WHERE kiosk_id = k.kiosk_id AND round_id = r;
    WHEN 'cards_misread' THEN
        UPDATE rounds SET misreads = misreads + 1 WHERE kiosk_id = k.kiosk_id AND round_id = r;
    WHEN 'dice_reshaken' THEN
        UPDATE rounds SET reshakes = reshakes + 1 WHERE kiosk_id = k.kiosk_id AND round_id = r;
    WHEN 'results_shown', 'round_resumed' THEN
        UPDATE kiosks SET round_step = event_kind WHERE kiosk_id = k.kiosk_id;
    WHEN 'round_settled' THEN
        UPDATE rounds SET status = 'settled', ended_at = moment, ended_seq = s, nets = body->'nets',
            house_net = CASE WHEN jsonb_typeof(body->'nets'->'house') = 'number'
                             THEN (body->'nets'->>'house')::bigint END
        WHERE kiosk_id = k.kiosk_id AND round_id = r;
        UPDATE kiosks SET open_round = NULL, round_step = NULL WHERE kiosk_id = k.kiosk_id;
    WHEN 'round_voided' THEN
        UPDATE rounds SET status = 'voided', ended_at = moment, ended_seq = s, void_reason = body->>'reason',
            voided_by = body->>'by'
        WHERE kiosk_id = k.kiosk_id AND round_id = r;
        UPDATE kiosks SET open_round = NULL, round_step = NULL WHERE kiosk_id = k.kiosk_id;
        PERFORM raise_alert(k, 'void', s, format('round %s voided by %s: %s', r, body->>'by', body->>'reason'));
    WHEN 'note' THEN
        IF body->>'by' = 'dealer' AND body->>'text' LIKE '%called the supervisor%' THEN
            PERFORM raise_alert(k, 'supervisor_called', s, 'SUPERVISOR CALLED at the table');
        END IF;
    WHEN 'supervisor_signed_in' THEN
        UPDATE kiosks SET signed_in = body->>'supervisor' WHERE kiosk_id = k.kiosk_id;
        UPDATE alerts SET cleared_at = moment, cleared_by = body->>'supervisor'
        WHERE kiosk_id = k.kiosk_id AND kind = 'supervisor_called' AND cleared_at IS NULL;
    WHEN 'supervisor_signed_out' THEN
        UPDATE kiosks SET signed_in = NULL WHERE kiosk_id = k.kiosk_id;
    WHEN 'journal_checked' THEN
        IF body->>'sound' = 'false' THEN
            PERFORM raise_alert(k, 'journal_failed', s, format('the kiosk''s journal failed its check: %s',
                                                               body->>'problem'));
        END IF;
    WHEN 'device_up' THEN
        UPDATE kiosks SET devices = devices || jsonb_build_object(body->>'device',
            jsonb_build_object('up', true, 'port', body->>'port', 'since', moment))
        WHERE kiosk_id = k.kiosk_id;
    WHEN 'device_down' THEN
        UPDATE kiosks SET devices = devices || jsonb_build_object(body->>'device',
            jsonb_build_object('up', false, 'reason', body->>'reason', 'since', moment))
        WHERE kiosk_id = k.kiosk_id;
    ELSE
        NULL;
    END CASE;
END
$$;

-- Keep the chain's head the kiosk sent at a round's end; an anchor the central copy contradicts raises an alert.
CREATE FUNCTION record_anchor(anchor jsonb) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    k kiosks := calling_kiosk();
    stored_hash text;
    s bigint := (anchor->>'seq')::bigint;
BEGIN
    IF anchor->>'kiosk' IS DISTINCT FROM k.kiosk_id OR anchor->>'table' IS DISTINCT FROM k.table_id THEN
        RAISE EXCEPTION 'kiosk % may anchor only its own journal, not kiosk %''s at table %', k.kiosk_id,
            anchor->>'kiosk', anchor->>'table' USING ERRCODE = 'insufficient_privilege';
    END IF;
    INSERT INTO anchors (kiosk_id, seq, hash, journal_id, table_id, time, why, mac)
    VALUES (k.kiosk_id, s, anchor->>'hash', anchor->>'journal', k.table_id, (anchor->>'time')::timestamptz,
            anchor->>'why', anchor->>'mac')
    ON CONFLICT DO NOTHING;
    UPDATE kiosks SET last_seen_at = now() WHERE kiosk_id = k.kiosk_id;
    SELECT e.hash INTO stored_hash FROM events e WHERE e.kiosk_id = k.kiosk_id AND e.seq = s;
    IF stored_hash IS NOT NULL AND stored_hash <> anchor->>'hash' THEN
        PERFORM raise_alert(k, 'anchor_mismatch', s, format('the kiosk anchored event %s with another hash than '
            'the copy the floor received: its journal was rewritten; the central copy stands', s));
        RETURN 'mismatch';
    END IF;
    RETURN 'kept';
END
$$;

-- ---- floor-facing ---------------------------------------------------------------------------------------

-- Raise a 'silent' alert for every kiosk not heard from for longer than quiet (run it every few seconds).
CREATE FUNCTION raise_silent_alerts(quiet interval) RETURNS integer
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    WITH raised AS (
        INSERT INTO alerts (kiosk_id, table_id, kind, message)
        SELECT kiosk_id, table_id, 'silent',
               format('no word from the kiosk since %s', coalesce(last_seen_at::text, 'it was enrolled'))
        FROM kiosks WHERE coalesce(last_seen_at, enrolled_at) < now() - quiet
        ON CONFLICT DO NOTHING
        RETURNING 1)
    SELECT count(*)::integer FROM raised
$$;

-- Privileges: kiosks reach the tables only through the functions above; the console reads.
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC;
GRANT EXECUTE ON FUNCTION kiosk_head(), ingest_events(jsonb), record_anchor(jsonb) TO floor_kiosk;
GRANT SELECT ON tables, kiosks, events, rounds, alerts, rejected_events, anchors TO floor_reader;
GRANT EXECUTE ON FUNCTION raise_silent_alerts(interval), chain_header(bigint, text, bigint, text, text, text,
    bigint, text) TO floor_reader;
