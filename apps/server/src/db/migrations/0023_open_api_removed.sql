-- The open API's status feed also lists the AEDs that left the network since changed_since: a
-- device deleted, or its installation removed (uninstalling clears installations.device_id; the
-- change record's old_device_sn keeps which device it was). Each removal time has its index, and
-- a device finds the installation it left by its serial in the change record.
CREATE INDEX devices_deleted_idx ON devices (deleted_at) WHERE deleted_at IS NOT NULL;
CREATE INDEX installations_removed_idx ON installations (removed_at) WHERE removed_at IS NOT NULL;
CREATE INDEX installation_changes_deleted_sn_idx ON installation_changes (old_device_sn)
  WHERE update_type = 5;
