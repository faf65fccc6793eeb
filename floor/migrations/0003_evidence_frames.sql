-- Evidence frames at the floor: the camera frame each reading (cards_read / cards_misread) cites, uploaded once by
-- the kiosk's shipper, keyed by its SHA-256 and checked against it on arrival. Kiosks write only through
-- ingest_frame() and learn what the floor still lacks through frames_wanted(); the console reads.

CREATE TABLE frames (
    digest       text PRIMARY KEY CHECK (digest ~ '^[0-9a-f]{64}$'),  -- sha256 of data: the name readings cite
    kiosk_id     text NOT NULL REFERENCES kiosks,                    -- the kiosk that sent it
    media_type   text NOT NULL CHECK (media_type IN ('image/jpeg', 'image/webp')),
    data         bytea NOT NULL,
    received_at  timestamptz NOT NULL DEFAULT now()
);

-- The readings citing a frame, per kiosk (what frames_wanted() walks and ingest_frame() checks).
CREATE INDEX events_citing_frames ON events (kiosk_id, seq)
    WHERE kind IN ('cards_read', 'cards_misread') AND payload ? 'frame';
CREATE INDEX events_frame_digest ON events (kiosk_id, (payload->>'frame'))
    WHERE kind IN ('cards_read', 'cards_misread') AND payload ? 'frame';
CREATE INDEX events_evidence_pruned ON events (kiosk_id, seq) WHERE kind = 'evidence_pruned';

-- Frames the calling kiosk's stored readings cite (after after_seq, in order) that the floor does not hold and that
-- no stored evidence_pruned event of the kiosk deleted after the reading.
CREATE FUNCTION frames_wanted(after_seq bigint, most integer) RETURNS TABLE (seq bigint, digest text)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    k kiosks := calling_kiosk();
BEGIN
    RETURN QUERY
    SELECT e.seq, e.payload->>'frame'
    FROM events e
    WHERE e.kiosk_id = k.kiosk_id AND e.seq > after_seq AND e.kind IN ('cards_read', 'cards_misread')
      AND e.payload ? 'frame' AND jsonb_typeof(e.payload->'frame') = 'string'
      AND NOT EXISTS (SELECT 1 FROM frames f WHERE f.digest = e.payload->>'frame')
      AND NOT EXISTS (SELECT 1 FROM events p WHERE p.kiosk_id = k.kiosk_id AND p.kind = 'evidence_pruned'
                      AND p.seq > e.seq AND p.payload->'frames' ? (e.payload->>'frame'))
    ORDER BY e.seq
    LIMIT greatest(most, 0);
END
$$;

-- Keep one frame of the calling kiosk: refused unless its bytes hash to its name and a stored reading of this
-- kiosk cites it. Returns 'stored', or 'duplicate' when the floor already holds it.
CREATE FUNCTION ingest_frame(frame_digest text, frame_media_type text, frame_data bytea) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    k kiosks := calling_kiosk();
    actual text := encode(sha256(frame_data), 'hex');
BEGIN
    IF frame_digest IS NULL OR frame_digest !~ '^[0-9a-f]{64}$' THEN
        RAISE EXCEPTION 'a frame is named by the SHA-256 of its bytes (64 lower-case hex digits), not %',
            coalesce(quote_literal(frame_digest), 'NULL') USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF length(frame_data) > 20000000 THEN
        RAISE EXCEPTION 'frame % refused: % bytes is more than a camera frame takes (20 MB at most)', frame_digest,
            length(frame_data) USING ERRCODE = 'data_exception';
    END IF;
    IF actual <> frame_digest THEN
        RAISE EXCEPTION 'frame % refused: its bytes hash to %, not to its name (altered on the kiosk or on the '
            'way); nothing was stored', frame_digest, actual USING ERRCODE = 'data_exception';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM events e WHERE e.kiosk_id = k.kiosk_id AND e.kind IN ('cards_read', 'cards_misread')
                   AND e.payload ? 'frame' AND e.payload->>'frame' = frame_digest) THEN
        RAISE EXCEPTION 'frame % refused: no reading of kiosk % at the floor cites it (ship the events first)',
            frame_digest, k.kiosk_id USING ERRCODE = 'insufficient_privilege';
    END IF;
    INSERT INTO frames (digest, kiosk_id, media_type, data) VALUES (frame_digest, k.kiosk_id, frame_media_type,
                                                                   frame_data)
    ON CONFLICT (digest) DO NOTHING;
    IF FOUND THEN
        RETURN 'stored';
    END IF;
    RETURN 'duplicate';
END
$$;

REVOKE ALL ON frames FROM PUBLIC;
REVOKE ALL ON FUNCTION frames_wanted(bigint, integer), ingest_frame(text, text, bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION frames_wanted(bigint, integer), ingest_frame(text, text, bytea) TO floor_kiosk;
GRANT SELECT ON frames TO floor_reader;
