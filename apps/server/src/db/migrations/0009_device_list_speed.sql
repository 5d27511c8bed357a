-- The device list at 100,000 registered devices (`npm run bench`, docs/benchmarks.md, 2026-11-22).

-- The live installations (one per registered device) newest first, holding what the list filters
-- on at the site: a page's ids come from an index-only walk of it, filters checked on the index
-- entries, and only the page's ten rows are read from the tables.
CREATE INDEX installations_live_time_idx ON installations (register_time DESC)
  INCLUDE (id, agency_id, address_code, device_manager_id, disable_abnormal_display,
           battery_expire, electrode_sheet_expire, host_expire)
  WHERE removed_at IS NULL AND device_id IS NOT NULL;

-- The registered devices by installation with what the list filters on and its id, so the walk
-- above joins them index-only too.
CREATE INDEX devices_registered_list_idx ON devices (installation_id) INCLUDE (id, status, battery)
  WHERE deleted_at IS NULL AND installation_id IS NOT NULL;
-- It holds all of migration 0008's devices_registered_idx (the statistics' join) and more.
DROP INDEX devices_registered_idx;

-- The list's total without a filter on the device: the live installations counted per
-- organisation in index order (no hash of 100,000 rows), then summed over the scope.
CREATE INDEX installations_live_agency_idx ON installations (agency_id)
  WHERE removed_at IS NULL AND device_id IS NOT NULL;

-- A region's live installations (the region filter, a prefix of address_code) with what the
-- list's count joins and filters on: a city's few thousand entries read index-only instead of a
-- scan of every live installation.
CREATE INDEX installations_live_address_idx ON installations (address_code text_pattern_ops)
  INCLUDE (id, agency_id, disable_abnormal_display, register_time)
  WHERE removed_at IS NULL AND device_id IS NOT NULL;
