-- The engine reads and locks a device with its state, site, rules and open conditions before
-- applying each message (engine.repository.ts, lockDevice). Planning that statement took longer
-- than running it (1.9 ms against 0.8 on PostgreSQL 15, more on PGlite; docs/benchmarks.md,
-- "Ingest after the quiet batch"): a PL/pgSQL function keeps its plan for the session, on both
-- the server and the embedded database, where a driver's prepared statement would serve one.
-- The cabinet an AED was taken from and not returned to (the newest such door event), or NULL.
CREATE FUNCTION engine_not_returned_cabinet(p_device bigint) RETURNS varchar
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT c.cabinet_sn FROM cabinet_door_events e
          JOIN cabinets c ON c.id = e.cabinet_id AND c.device_id = e.device_id AND c.deleted_at IS NULL
          WHERE e.device_id = p_device AND e.not_returned_at IS NOT NULL AND e.aed_back_at IS NULL
          ORDER BY e.opened_at DESC LIMIT 1);
END $$;

CREATE FUNCTION engine_device_facts(p_device bigint, p_waiting_before bigint)
RETURNS TABLE (
  id bigint, device_sn varchar, model varchar, agency_id bigint, index_link text,
  installation_id bigint, deleted boolean, status smallint, readiness varchar, readiness_reasons text[],
  battery smallint, last_pass_at timestamptz, has_state boolean, last_boot integer, last_seq bigint,
  report_interval_s integer, offset_streak smallint, rescue_id bigint, rescue_event_id varchar,
  rescue_last_at timestamptz, lat double precision, lon double precision, location varchar,
  electrode_sheet_expire text, battery_expire text, host_expire text, safety_radius integer,
  sms_off smallint, config jsonb, open_events json, not_returned_cabinet varchar, waiting boolean,
  display_off boolean
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT d.id, d.device_sn, d.model, a.id, a.index_link, i.id,
    d.deleted_at IS NOT NULL, d.status, d.readiness, d.readiness_reasons, d.battery,
    d.last_pass_at, s.device_id IS NOT NULL, s.last_boot, s.last_seq,
    s.report_interval_s, s.offset_streak, s.rescue_id, r.rescue_event_id, s.rescue_last_at,
    i.lat, i.lon, i.location, i.electrode_sheet_expire::text, i.battery_expire::text,
    i.host_expire::text, i.safety_radius, i.disable_abnormal_sms_notify, st.config,
    (SELECT coalesce(json_agg(json_build_object('id', e.id, 'kind', e.kind, 'code', e.code)), '[]'::json)
     FROM device_events e WHERE e.device_id = d.id AND e.closed_at IS NULL),
    engine_not_returned_cabinet(d.id),
    -- Messages stored before this one still wait to be applied (NULL: not asked).
    p_waiting_before IS NOT NULL AND EXISTS (
      SELECT 1 FROM device_inbox w WHERE (w.processed_at IS NULL OR w.outcome = 'failed')
        AND w.attempts < 10 AND w.sender_kind = 'aed' AND w.sender_id = d.id AND w.id < p_waiting_before),
    coalesce(i.disable_abnormal_display = 1, false)
  FROM devices d
  LEFT JOIN installations i ON i.id = d.installation_id AND i.removed_at IS NULL
  JOIN agencies a ON a.id = coalesce(i.agency_id, d.agency_id)
  LEFT JOIN device_states s ON s.device_id = d.id
  LEFT JOIN rescue_events r ON r.id = s.rescue_id AND r.ended_at IS NULL
  LEFT JOIN agency_settings st ON st.agency_id = a.id
  WHERE d.id = p_device
  FOR UPDATE OF d;
END $$;
