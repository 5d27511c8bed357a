-- The dashboard map (issue 11; `npm run bench`, docs/benchmarks.md, 2026-11-22).

-- The device layer: every registered device's point and shown status, from the index alone. Keyed
-- by region so a province or city reads its own range; the whole network (or a large scope, by
-- its organisation ids) walks it whole without touching the wide installation rows. Small scopes
-- keep reading installations_registered_agency_idx and their few rows.
CREATE INDEX installations_registered_map_idx ON installations (address_code text_pattern_ops)
  INCLUDE (agency_id, device_id, lat, lon, disable_abnormal_display, device_status)
  WHERE removed_at IS NULL AND device_id IS NOT NULL AND device_status IS NOT NULL;

-- The rescue layer: rescues that ended recently, by end time (those in progress are read by
-- rescue_events_open_idx), so the layer does not walk every rescue of past years.
CREATE INDEX rescue_events_ended_idx ON rescue_events (ended_at) WHERE ended_at IS NOT NULL;
