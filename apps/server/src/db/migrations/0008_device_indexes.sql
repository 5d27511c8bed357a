-- Indexes for the device list and the device statistics at 100,000 registered devices
-- (`npm run bench`, docs/benchmarks.md, 2026-11-22).

-- The statistics join every registered device to its installation. These two covering indexes
-- hold what they read, both in installation order: the join is a merge of two index-only scans
-- (no heap pages, no hash of 100,000 rows), about half the time of the table scans.
CREATE INDEX devices_registered_idx ON devices (installation_id) INCLUDE (status, battery)
  WHERE deleted_at IS NULL AND installation_id IS NOT NULL;
CREATE INDEX installations_stats_idx ON installations (id)
  INCLUDE (agency_id, address_code, disable_abnormal_display, battery_expire, electrode_sheet_expire, host_expire)
  WHERE removed_at IS NULL AND device_id IS NOT NULL;

-- Newest installations first: the device list's order (register_time DESC, then the device id),
-- so its first pages read a few index entries instead of sorting every device; and the
-- registrations of the maintenance line's last twelve months, a range of it read index-only.
CREATE INDEX installations_register_time_idx ON installations (register_time DESC)
  INCLUDE (agency_id, address_code);

-- The maintenance line's routine changes, moves and replacements by time (registrations, the
-- bulk of the change record, come from installations.register_time).
CREATE INDEX installation_changes_time_idx ON installation_changes (update_time)
  INCLUDE (installation_id, update_type) WHERE update_type IN (1, 2, 3);

-- The maintenance line of one organisation's subtree (most members): its installations, removed
-- ones too, by organisation and time (registrations; the ids lead to the changes), and its
-- inspections. Without them a small subtree's line reads every row of the network.
CREATE INDEX installations_agency_time_idx ON installations (agency_id, register_time) INCLUDE (id, address_code);
CREATE INDEX device_inspections_agency_time_idx ON device_inspections (agency_id, inspect_time);

-- The factory list's order (create_time DESC, id DESC) over every organisation of a large scope.
CREATE INDEX devices_create_time_idx ON devices (create_time DESC, id DESC) WHERE deleted_at IS NULL;
