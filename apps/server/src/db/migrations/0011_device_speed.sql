-- The device list and the device statistics without joining 100,000 devices to their
-- installations (`npm run bench`, docs/benchmarks.md, 2026-11-22).

-- What the list filters on and the statistics count of the device (its status 0-4 and battery
-- level), copied onto its installation: the live, not deleted device whose installation_id is
-- this installation (there is at most one), or NULL in device_status when there is none. Kept
-- true by the triggers below whoever writes devices (the device service, the gateway, the status
-- engine): no application code writes these two columns. A registered device is then
-- `removed_at IS NULL AND device_id IS NOT NULL AND device_status IS NOT NULL` on the
-- installation alone, the same rows as the join of devices (installation_id, deleted_at IS NULL).
ALTER TABLE installations ADD COLUMN device_status smallint, ADD COLUMN device_battery smallint;

UPDATE installations i SET device_status = d.status, device_battery = d.battery
FROM devices d WHERE d.installation_id = i.id AND d.deleted_at IS NULL;

-- Copies the device's status and battery onto these installations (NULL when none has one now).
CREATE FUNCTION installations_copy_device(ids bigint[]) RETURNS void LANGUAGE sql AS $$
  UPDATE installations i SET device_status = d.status, device_battery = d.battery
  FROM (SELECT DISTINCT x FROM unnest(ids) x WHERE x IS NOT NULL) u(id)
  LEFT JOIN LATERAL (SELECT status, battery FROM devices
                     WHERE installation_id = u.id AND deleted_at IS NULL ORDER BY id LIMIT 1) d ON true
  WHERE i.id = u.id
    AND (i.device_status IS DISTINCT FROM d.status OR i.device_battery IS DISTINCT FROM d.battery)
$$;

-- One statement at a time (a bulk registration is one set-based update, not one per row): every
-- installation a changed device left or sits in. No join of the old and new rows: transition
-- tables carry no statistics, and a nested loop over a 100,000-row update never ends; the copy
-- only writes an installation whose values differ.
CREATE FUNCTION devices_copy_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM installations_copy_device(ARRAY(
    SELECT installation_id FROM old_rows WHERE installation_id IS NOT NULL
    UNION
    SELECT installation_id FROM new_rows WHERE installation_id IS NOT NULL));
  RETURN NULL;
END
$$;
CREATE FUNCTION devices_copy_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM installations_copy_device(ARRAY(SELECT installation_id FROM new_rows WHERE installation_id IS NOT NULL));
  RETURN NULL;
END
$$;
CREATE FUNCTION devices_copy_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM installations_copy_device(ARRAY(SELECT installation_id FROM old_rows WHERE installation_id IS NOT NULL));
  RETURN NULL;
END
$$;
CREATE TRIGGER devices_copy_update AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION devices_copy_on_update();
CREATE TRIGGER devices_copy_insert AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION devices_copy_on_insert();
CREATE TRIGGER devices_copy_delete AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION devices_copy_on_delete();

-- Registered devices per organisation, the device list's total when nothing but the scope
-- narrows it (the console's first view): summed over the scope's organisations, a few thousand
-- rows instead of 100,000 index entries. Kept by the statement triggers below in the transaction
-- that changes an installation (including the copies above); a row may stay at 0.
CREATE TABLE registered_device_counts (
  agency_id  bigint PRIMARY KEY,
  n          integer NOT NULL
);
INSERT INTO registered_device_counts (agency_id, n)
SELECT agency_id, count(*) FROM installations
WHERE removed_at IS NULL AND device_id IS NOT NULL AND device_status IS NOT NULL
GROUP BY agency_id;

-- Adds what a statement changed: +1 per installation now registered, -1 per one that was
-- (organisations in order, so two statements lock their rows in the same order).
CREATE FUNCTION registered_counts_on_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO registered_device_counts (agency_id, n)
    SELECT agency_id, count(*) FROM new_rows
    WHERE removed_at IS NULL AND device_id IS NOT NULL AND device_status IS NOT NULL
    GROUP BY agency_id ORDER BY agency_id
    ON CONFLICT (agency_id) DO UPDATE SET n = registered_device_counts.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO registered_device_counts (agency_id, n)
    SELECT agency_id, -count(*) FROM old_rows
    WHERE removed_at IS NULL AND device_id IS NOT NULL AND device_status IS NOT NULL
    GROUP BY agency_id ORDER BY agency_id
    ON CONFLICT (agency_id) DO UPDATE SET n = registered_device_counts.n + EXCLUDED.n;
  ELSE
    INSERT INTO registered_device_counts (agency_id, n)
    SELECT agency_id, sum(d) FROM (
      SELECT agency_id, 1 AS d FROM new_rows
      WHERE removed_at IS NULL AND device_id IS NOT NULL AND device_status IS NOT NULL
      UNION ALL
      SELECT agency_id, -1 FROM old_rows
      WHERE removed_at IS NULL AND device_id IS NOT NULL AND device_status IS NOT NULL) x
    GROUP BY agency_id HAVING sum(d) <> 0 ORDER BY agency_id
    ON CONFLICT (agency_id) DO UPDATE SET n = registered_device_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER installations_counts_insert AFTER INSERT ON installations
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION registered_counts_on_change();
CREATE TRIGGER installations_counts_update AFTER UPDATE ON installations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION registered_counts_on_change();
CREATE TRIGGER installations_counts_delete AFTER DELETE ON installations
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION registered_counts_on_change();

-- The registered devices' installations newest first (the list's order: register_time DESC, then
-- the device id), holding everything the list filters on: a page's ids come from an index-only
-- walk with every filter but the serial and the model checked on the entries.
CREATE INDEX installations_registered_time_idx ON installations (register_time DESC, device_id DESC)
  INCLUDE (id, agency_id, address_code, device_manager_id, disable_abnormal_display, device_status,
           device_battery, battery_expire, electrode_sheet_expire, host_expire)
  WHERE removed_at IS NULL AND device_id IS NOT NULL AND device_status IS NOT NULL;

-- The same by organisation: the statistics of a scope and the list's total, index-only.
CREATE INDEX installations_registered_agency_idx ON installations (agency_id)
  INCLUDE (address_code, disable_abnormal_display, device_status, device_battery, battery_expire,
           electrode_sheet_expire, host_expire, device_manager_id, register_time)
  WHERE removed_at IS NULL AND device_id IS NOT NULL AND device_status IS NOT NULL;

-- And by region (a prefix of address_code): a city's or a province's entries only.
CREATE INDEX installations_registered_address_idx ON installations (address_code text_pattern_ops)
  INCLUDE (agency_id, disable_abnormal_display, device_status, device_battery, battery_expire,
           electrode_sheet_expire, host_expire, device_manager_id, register_time)
  WHERE removed_at IS NULL AND device_id IS NOT NULL AND device_status IS NOT NULL;

-- Superseded by the three above (every query that read them now reads those).
DROP INDEX installations_live_time_idx;
DROP INDEX installations_live_agency_idx;
DROP INDEX installations_live_address_idx;
DROP INDEX installations_stats_idx;
