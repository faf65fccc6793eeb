-- Issue 54 item 3: the dealer's name. Dealers sign in at the kiosk (dealer_signed_in / dealer_signed_out events)
-- and each round_begun names the dealer signed in. rounds.dealer is that dealer: from the round_begun event, or
-- for a kiosk whose rounds do not name one, the dealer its events last signed in. Kept by triggers of their own,
-- so that later versions of summarise_event need not know of dealers.

ALTER TABLE kiosks ADD COLUMN dealer text;  -- the dealer signed in at the table now, if any

-- Until now rounds.dealer held the supervisor signed in at the kiosk (the journal named no dealer): not a dealer.
UPDATE rounds SET dealer = NULL;

CREATE FUNCTION track_dealer() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NEW.kind = 'dealer_signed_in' THEN
        UPDATE kiosks SET dealer = NEW.payload->>'dealer' WHERE kiosk_id = NEW.kiosk_id;
    ELSE
        UPDATE kiosks SET dealer = NULL WHERE kiosk_id = NEW.kiosk_id AND dealer = NEW.payload->>'dealer';
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER events_track_dealer AFTER INSERT ON events FOR EACH ROW
    WHEN (NEW.kind IN ('dealer_signed_in', 'dealer_signed_out')) EXECUTE FUNCTION track_dealer();

CREATE FUNCTION round_dealer() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    NEW.dealer := (SELECT coalesce(nullif(e.payload->>'dealer', ''), k.dealer)
                   FROM kiosks k LEFT JOIN events e ON e.kiosk_id = k.kiosk_id AND e.seq = NEW.begun_seq
                   WHERE k.kiosk_id = NEW.kiosk_id);
    RETURN NEW;
END
$$;
CREATE TRIGGER rounds_dealer BEFORE INSERT ON rounds FOR EACH ROW EXECUTE FUNCTION round_dealer();
