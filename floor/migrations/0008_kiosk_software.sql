-- Issue 56: every kiosk start records the release and the model files it runs (a settings_changed event, setting
-- 'software'); the pit view shows each table's latest. This index finds it without reading the kiosk's events.

CREATE INDEX events_software ON events (kiosk_id, seq DESC)
    WHERE kind = 'settings_changed' AND payload->>'setting' = 'software';
