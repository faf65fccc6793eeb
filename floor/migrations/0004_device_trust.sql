-- Issue 59: a shaker or panel that did not prove it holds the key paired with its kiosk (protocol 3) is journalled
-- by the kiosk as device_refused, and one let in on protocol 2 by the config as devices_unauthenticated; both are
-- raised on the pit view (one alert per event, acknowledged by a supervisor) and shown in the table's devices.

ALTER TABLE alerts DROP CONSTRAINT alerts_kind_check;
ALTER TABLE alerts ADD CONSTRAINT alerts_kind_check CHECK (kind IN ('fork', 'gap', 'journal_failed',
    'supervisor_called', 'silent', 'void', 'anchor_mismatch', 'device_refused', 'device_unauthenticated'));

DROP INDEX alerts_one_per_event;
CREATE UNIQUE INDEX alerts_one_per_event ON alerts (kiosk_id, kind, seq)
    WHERE seq IS NOT NULL AND kind IN ('supervisor_called', 'journal_failed', 'void', 'device_refused',
                                       'device_unauthenticated');

-- Keeps kiosks, rounds and alerts in step with one stored event (called by ingest_events only): 0001's, with the
-- two device kinds above.
CREATE OR REPLACE FUNCTION summarise_event(k kiosks, s bigint, moment timestamptz, r bigint, event_kind text, body jsonb)
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
    WHEN 'device_refused' THEN
        UPDATE kiosks SET devices = devices || jsonb_build_object(body->>'device',
            jsonb_build_object('up', false, 'reason', format('not authenticated: %s', body->>'serial'),
                               'since', moment))
        WHERE kiosk_id = k.kiosk_id;
        PERFORM raise_alert(k, 'device_refused', s, format('%s not authenticated: %s', body->>'device',
                                                           body->>'serial'));
    WHEN 'devices_unauthenticated' THEN
        UPDATE kiosks SET devices = devices || jsonb_build_object(body->>'device',
            jsonb_build_object('up', true, 'reason', format('protocol 2, NOT authenticated: %s', body->>'serial'),
                               'since', moment))
        WHERE kiosk_id = k.kiosk_id;
        PERFORM raise_alert(k, 'device_unauthenticated', s, format('%s %s speaks protocol 2: NOT authenticated '
            '(allowed by the kiosk''s config)', body->>'device', body->>'serial'));
    WHEN 'device_down' THEN
        UPDATE kiosks SET devices = devices || jsonb_build_object(body->>'device',
            jsonb_build_object('up', false, 'reason', body->>'reason', 'since', moment))
        WHERE kiosk_id = k.kiosk_id;
    ELSE
        NULL;
    END CASE;
END
$$;
