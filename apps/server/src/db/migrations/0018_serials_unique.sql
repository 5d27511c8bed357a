-- A serial names one device: an AED (devices) or a rescue cabinet (cabinets), never both. The
-- device gateway looks a serial up in both registers (the AED's first), so a cabinet with an
-- AED's serial could never sign in. Each register's own partial unique index keeps its serials
-- unique among its live rows (deleted_at IS NULL); these triggers refuse a live serial of the
-- other register, on insert, on a change of serial and on a row brought back from deletion.
--
-- Two transactions writing the same serial to the two tables would each miss the other's
-- uncommitted row, so every write of a serial takes one transaction-scoped advisory lock first
-- and checks after it (a fresh snapshot per statement in READ COMMITTED sees what the holder
-- committed). It is one lock for all serials, not one per serial: a statement inserting 100,000
-- devices (the benchmarks) would take 100,000 locks, past the shared lock table (PGlite:
-- "out of shared memory"), and a lock per bucket of serials lets two imports deadlock. Such
-- writes are rare (imports, a new cabinet, the seed): they wait for each other. The services
-- take it too (serials_lock) before their own check, so a clash reaches the console as the
-- register's message and these triggers are the backstop. Class 720304 of the two-key advisory
-- locks (720302 jobs, 720303 live pushes).

CREATE FUNCTION serials_lock() RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(720304, 1)
$$;

-- Raises unique_violation (constraint serials_unique) when a live row of the other register
-- holds one of these serials; `written` is the table being written.
CREATE FUNCTION serials_refuse(written text, serials text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  clash text;
BEGIN
  IF written = 'devices' THEN
    SELECT c.cabinet_sn INTO clash FROM cabinets c
    WHERE c.deleted_at IS NULL AND c.cabinet_sn = ANY(serials) LIMIT 1;
  ELSE
    SELECT d.device_sn INTO clash FROM devices d
    WHERE d.deleted_at IS NULL AND d.device_sn = ANY(serials) LIMIT 1;
  END IF;
  IF clash IS NOT NULL THEN
    RAISE EXCEPTION 'serials_unique: serial % is taken by %', clash,
      CASE written WHEN 'devices' THEN 'a rescue cabinet' ELSE 'an AED' END
      USING ERRCODE = 'unique_violation', CONSTRAINT = 'serials_unique';
  END IF;
END
$$;

-- Inserts: the lock before the statement writes a row, the check once over all it inserted.
CREATE FUNCTION serials_lock_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM serials_lock();
  RETURN NULL;
END
$$;
CREATE FUNCTION devices_serials_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM serials_refuse('devices', ARRAY(SELECT device_sn::text FROM new_rows WHERE deleted_at IS NULL));
  RETURN NULL;
END
$$;
CREATE FUNCTION cabinets_serials_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM serials_refuse('cabinets', ARRAY(SELECT cabinet_sn::text FROM new_rows WHERE deleted_at IS NULL));
  RETURN NULL;
END
$$;
CREATE TRIGGER devices_serials_lock BEFORE INSERT ON devices
  FOR EACH STATEMENT EXECUTE FUNCTION serials_lock_statement();
CREATE TRIGGER devices_serials_insert AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION devices_serials_inserted();
CREATE TRIGGER cabinets_serials_lock BEFORE INSERT ON cabinets
  FOR EACH STATEMENT EXECUTE FUNCTION serials_lock_statement();
CREATE TRIGGER cabinets_serials_insert AFTER INSERT ON cabinets
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cabinets_serials_inserted();

-- Updates: only a row whose serial changed or that comes back from deletion (the engine's
-- frequent updates of devices never call these).
CREATE FUNCTION devices_serial_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM serials_lock();
  PERFORM serials_refuse('devices', ARRAY[NEW.device_sn::text]);
  RETURN NEW;
END
$$;
CREATE FUNCTION cabinets_serial_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM serials_lock();
  PERFORM serials_refuse('cabinets', ARRAY[NEW.cabinet_sn::text]);
  RETURN NEW;
END
$$;
CREATE TRIGGER devices_serial_update BEFORE UPDATE OF device_sn, deleted_at ON devices
  FOR EACH ROW
  WHEN (NEW.deleted_at IS NULL AND (NEW.device_sn IS DISTINCT FROM OLD.device_sn OR OLD.deleted_at IS NOT NULL))
  EXECUTE FUNCTION devices_serial_changed();
CREATE TRIGGER cabinets_serial_update BEFORE UPDATE OF cabinet_sn, deleted_at ON cabinets
  FOR EACH ROW
  WHEN (NEW.deleted_at IS NULL AND (NEW.cabinet_sn IS DISTINCT FROM OLD.cabinet_sn OR OLD.deleted_at IS NOT NULL))
  EXECUTE FUNCTION cabinets_serial_changed();
