-- The device's radio and power as the gateway last heard them (issue 28): the positioning type of
-- its latest location, the cable voltage of its latest heartbeat that carried one (rssi was
-- already kept). The quiet batch takes a cable voltage per device beside the signal.
ALTER TABLE device_states ADD COLUMN positioning_type varchar(8);
ALTER TABLE device_states ADD COLUMN cable_voltage real;

DROP FUNCTION engine_quiet_batch(bigint[], text[], text[], int[], bigint[], timestamptz[], timestamptz[],
  boolean[], timestamptz[], text[], jsonb[], bigint[], int[], bigint[], int[], bigint[], timestamptz[],
  smallint[], smallint[], int[], timestamptz[], text[], text[], bigint[], smallint[], smallint[],
  timestamptz[], timestamptz, int, int, double precision, int, int);

-- As in 0017, with p_cable_voltage after p_rssi.
CREATE FUNCTION engine_quiet_batch(
  r_sender bigint[], r_msg text[], r_type text[], r_boot int[], r_seq bigint[], r_device_ts timestamptz[],
  r_event_time timestamptz[], r_flagged boolean[], r_received timestamptz[], r_transport text[], r_data jsonb[],
  p_device bigint[], p_first_boot int[], p_first_seq bigint[], p_boot int[], p_seq bigint[],
  p_seen timestamptz[], p_rssi smallint[], p_cable_voltage real[], p_battery smallint[], p_band int[], p_pass_at timestamptz[],
  p_pads text[], p_battery_exp text[],
  t_device bigint[], t_report_type smallint[], t_battery smallint[], t_at timestamptz[],
  p_now timestamptz,
  p_default_interval_s int, p_missed_factor int, p_grace_s double precision,
  p_exhausted int, p_low int
) RETURNS TABLE (inbox_id bigint, sender_id bigint, msg_id text, loud boolean)
LANGUAGE plpgsql
-- Planned for each call's own arrays: PL/pgSQL would switch to a generic plan after five calls,
-- and that plan ran a 2,000-row batch in 1.0-1.25 s against 0.1 s (at 10,000 messages a second
-- batches took 0.4-4 s and the engine fell to 4,000 a second). The single round trip stays.
SET plan_cache_mode = force_custom_plan
AS $$
#variable_conflict use_column
DECLARE
  v_ids bigint[];
  v_senders bigint[];
  v_msgs text[];
  v_dup bigint[];
  v_quiet bigint[];
BEGIN
  -- Devices first, in id order, as the engine locks them (device, then its state): a batch and
  -- a message or the sweep on the same device wait for each other instead of crossing.
  PERFORM 1 FROM devices WHERE id = ANY(r_sender) ORDER BY id FOR UPDATE;

  WITH ins AS (
    INSERT INTO device_inbox (sender_kind, sender_id, msg_id, type, boot, seq, device_ts, event_time,
      ts_flagged, received_at, transport, data, processed_at, outcome, attempts)
    SELECT 'aed', s, m, t, b, q, dts, et, f, ra, tr, da, p_now, 'coalesced', 1
    FROM unnest(r_sender, r_msg, r_type, r_boot, r_seq, r_device_ts, r_event_time, r_flagged, r_received,
      r_transport, r_data) WITH ORDINALITY AS u (s, m, t, b, q, dts, et, f, ra, tr, da, n)
    ORDER BY n
    ON CONFLICT (sender_kind, sender_id, msg_id) DO NOTHING
    RETURNING id, sender_id, msg_id
  )
  SELECT coalesce(array_agg(id ORDER BY id), '{}'), coalesce(array_agg(sender_id ORDER BY id), '{}'),
    coalesce(array_agg(msg_id ORDER BY id), '{}')
  INTO v_ids, v_senders, v_msgs FROM ins;

  -- A device with a duplicate in the batch was summarised with it: its new rows go to the engine.
  SELECT coalesce(array_agg(DISTINCT u.s), '{}') INTO v_dup
  FROM unnest(r_sender, r_msg) AS u (s, m)
  LEFT JOIN unnest(v_senders, v_msgs) AS i (s, m) ON i.s = u.s AND i.m = u.m
  WHERE i.s IS NULL;

  WITH v AS (
    SELECT u.* FROM unnest(p_device, p_first_boot, p_first_seq, p_boot, p_seq, p_seen, p_rssi, p_cable_voltage, p_battery,
      p_band, p_pass_at, p_pads, p_battery_exp)
      AS u (device_id, first_boot, first_seq, boot, seq, seen, rssi, cable_voltage, battery, band, pass_at, pads, battery_exp)
    WHERE NOT EXISTS (SELECT 1 FROM unnest(v_dup) AS x (id) WHERE x.id = u.device_id)
  ),
  q AS (
    UPDATE device_states s SET last_boot = v.boot, last_seq = v.seq, last_seen_at = v.seen,
      rssi = coalesce(v.rssi, s.rssi), cable_voltage = coalesce(v.cable_voltage, s.cable_voltage),
      next_deadline_at = v.seen + make_interval(secs =>
        coalesce(s.report_interval_s, p_default_interval_s) * p_missed_factor + p_grace_s),
      update_time = p_now
    FROM v, devices d LEFT JOIN installations i ON i.id = d.installation_id AND i.removed_at IS NULL
    WHERE s.device_id = v.device_id AND d.id = v.device_id AND d.deleted_at IS NULL
      AND NOT s.offline AND s.rescue_id IS NULL
      -- Every row newer than the state (none of them stale).
      AND (v.first_boot > s.last_boot OR (v.first_boot = s.last_boot AND v.first_seq > s.last_seq))
      -- An earlier message still waiting to be applied goes first (it would turn stale).
      AND NOT EXISTS (SELECT 1 FROM device_inbox w
                      WHERE (w.processed_at IS NULL OR w.outcome = 'failed') AND w.id < v_ids[1]
                        AND w.sender_kind = 'aed' AND w.sender_id = v.device_id)
      AND (v.band IS NULL OR CASE WHEN d.battery IS NULL THEN -1 WHEN d.battery <= p_exhausted THEN 0
                                  WHEN d.battery <= p_low THEN 1 ELSE 2 END = v.band)
      -- Passing self-tests are quiet when no fault is open for them to close and they bring no
      -- new consumable dates (any doubt goes to the engine, which is always right).
      AND (v.pass_at IS NULL OR (
        -- A device's first pass makes its readiness known: the engine writes that.
        d.last_pass_at IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM device_events e
                    WHERE e.device_id = v.device_id AND e.kind = 'fault' AND e.closed_at IS NULL)
        AND (v.pads IS NULL OR v.pads = coalesce(i.electrode_sheet_expire::text, '9999-12-31'))
        AND (v.battery_exp IS NULL OR v.battery_exp = coalesce(i.battery_expire::text, '9999-12-31'))))
    RETURNING s.device_id
  ),
  b AS (
    UPDATE devices d SET battery = coalesce(v.battery, d.battery),
      last_pass_at = coalesce(v.pass_at, d.last_pass_at)
    FROM v, q
    WHERE d.id = v.device_id AND q.device_id = v.device_id
      AND (v.pass_at IS NOT NULL OR d.battery IS DISTINCT FROM coalesce(v.battery, d.battery))
  ),
  det AS (
    INSERT INTO device_detections (device_id, installation_id, agency_id, index_link, report_type,
      check_result, fault_codes, battery, check_time)
    SELECT d.id, i.id, a.id, a.index_link, t.report_type, 1, '{}'::text[], t.battery, t.at
    FROM unnest(t_device, t_report_type, t_battery, t_at) WITH ORDINALITY AS t (device_id, report_type, battery, at, n)
      JOIN q ON q.device_id = t.device_id JOIN devices d ON d.id = t.device_id
      LEFT JOIN installations i ON i.id = d.installation_id AND i.removed_at IS NULL
      JOIN agencies a ON a.id = coalesce(i.agency_id, d.agency_id)
    ORDER BY t.n
  )
  SELECT coalesce(array_agg(q.device_id), '{}') INTO v_quiet FROM q;

  -- The rest changes something: it waits for the engine (the caller applies it after the commit,
  -- the retry job if the caller dies first).
  UPDATE device_inbox w SET processed_at = NULL, outcome = NULL, attempts = 0
  FROM unnest(v_ids, v_senders) AS i (id, s)
  WHERE w.id = i.id AND NOT EXISTS (SELECT 1 FROM unnest(v_quiet) AS x (id) WHERE x.id = i.s);

  RETURN QUERY
  SELECT i.id, i.s, i.m, NOT EXISTS (SELECT 1 FROM unnest(v_quiet) AS x (id) WHERE x.id = i.s)
  FROM unnest(v_ids, v_senders, v_msgs) AS i (id, s, m);
END $$;
