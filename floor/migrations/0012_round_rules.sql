-- Each Bài Bửu round's rule (its table's copy rule and commission, from its round_begun event's settings) kept on
-- its summary row, so that theoretical hold (bets × the exact edge of that rule) is summed from rounds alone, without
-- reading every round's first event. Kept by a trigger of its own; rounds already stored are filled in here.

ALTER TABLE rounds ADD COLUMN copy_rule text, ADD COLUMN commission text;

CREATE FUNCTION round_rule() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NEW.game = 'baibuu' THEN
        SELECT e.payload->'settings'->>'copy_rule', e.payload->'settings'->>'commission'
            INTO NEW.copy_rule, NEW.commission
            FROM events e WHERE e.kiosk_id = NEW.kiosk_id AND e.seq = NEW.begun_seq;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER rounds_rule BEFORE INSERT ON rounds FOR EACH ROW EXECUTE FUNCTION round_rule();

UPDATE rounds r SET copy_rule = e.payload->'settings'->>'copy_rule', commission = e.payload->'settings'->>'commission'
    FROM events e WHERE r.game = 'baibuu' AND e.kiosk_id = r.kiosk_id AND e.seq = r.begun_seq;
