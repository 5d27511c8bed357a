-- MQTT_AUTH=mosquitto-dynsec (issue 29): the serials whose broker accounts must be brought in
-- step with the register (modules/gateway/mqtt-dynsec.ts). Triggers write them in the
-- transaction that changes a device or cabinet, so a change is queued exactly when it commits
-- and never lost; NOTIFY (also sent at commit) wakes the server instances. With MQTT_AUTH=hooks
-- nobody reads the table: it holds at most one row per serial.
CREATE TABLE mqtt_dynsec_changes (
  sn varchar(64) PRIMARY KEY,
  -- Sealed secrets that no longer belong to this serial (rotated past, deleted, serial changed):
  -- their broker accounts are removed unless the register gives the same secret again.
  retired_enc text[] NOT NULL DEFAULT '{}',
  -- Raised by every change: a drain removes the row only if nothing changed while it worked.
  version bigint NOT NULL DEFAULT 1,
  -- Not before this (a retry's backoff, a claim's lease, the end of a rotation's overlap); null: now.
  due_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text
);

CREATE FUNCTION mqtt_dynsec_queue(serial text, retired text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO mqtt_dynsec_changes AS c (sn, retired_enc) VALUES (serial, retired)
  ON CONFLICT (sn) DO UPDATE
    SET retired_enc = c.retired_enc || EXCLUDED.retired_enc, version = c.version + 1,
        due_at = NULL, attempts = 0, last_error = NULL;
  -- Identical notifications of one transaction are folded into one (an import sends one).
  PERFORM pg_notify('mqtt_dynsec', '""');
END
$$;

-- The secrets a row held: retired when the row leaves its serial (a drain keeps any still valid).
CREATE FUNCTION mqtt_dynsec_secrets(secret_enc text, prev_secret_enc text) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$ SELECT array_remove(ARRAY[secret_enc, prev_secret_enc], NULL) $$;

CREATE FUNCTION devices_mqtt_dynsec() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM mqtt_dynsec_queue(OLD.device_sn, mqtt_dynsec_secrets(OLD.secret_enc, OLD.prev_secret_enc));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND (TG_OP = 'INSERT' OR NEW.device_sn IS DISTINCT FROM OLD.device_sn) THEN
    PERFORM mqtt_dynsec_queue(NEW.device_sn, '{}');
  END IF;
  RETURN NULL;
END
$$;
CREATE FUNCTION cabinets_mqtt_dynsec() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM mqtt_dynsec_queue(OLD.cabinet_sn, mqtt_dynsec_secrets(OLD.secret_enc, OLD.prev_secret_enc));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND (TG_OP = 'INSERT' OR NEW.cabinet_sn IS DISTINCT FROM OLD.cabinet_sn) THEN
    PERFORM mqtt_dynsec_queue(NEW.cabinet_sn, '{}');
  END IF;
  RETURN NULL;
END
$$;

-- Only the columns that decide a broker account: the engine's frequent updates never fire these.
CREATE TRIGGER devices_mqtt_dynsec_insert AFTER INSERT ON devices
  FOR EACH ROW EXECUTE FUNCTION devices_mqtt_dynsec();
CREATE TRIGGER devices_mqtt_dynsec_update AFTER UPDATE ON devices
  FOR EACH ROW WHEN (
    OLD.device_sn IS DISTINCT FROM NEW.device_sn OR OLD.secret_enc IS DISTINCT FROM NEW.secret_enc
    OR OLD.prev_secret_enc IS DISTINCT FROM NEW.prev_secret_enc
    OR OLD.prev_secret_until IS DISTINCT FROM NEW.prev_secret_until
    OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION devices_mqtt_dynsec();
CREATE TRIGGER devices_mqtt_dynsec_delete AFTER DELETE ON devices
  FOR EACH ROW EXECUTE FUNCTION devices_mqtt_dynsec();
CREATE TRIGGER cabinets_mqtt_dynsec_insert AFTER INSERT ON cabinets
  FOR EACH ROW EXECUTE FUNCTION cabinets_mqtt_dynsec();
CREATE TRIGGER cabinets_mqtt_dynsec_update AFTER UPDATE ON cabinets
  FOR EACH ROW WHEN (
    OLD.cabinet_sn IS DISTINCT FROM NEW.cabinet_sn OR OLD.secret_enc IS DISTINCT FROM NEW.secret_enc
    OR OLD.prev_secret_enc IS DISTINCT FROM NEW.prev_secret_enc
    OR OLD.prev_secret_until IS DISTINCT FROM NEW.prev_secret_until
    OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION cabinets_mqtt_dynsec();
CREATE TRIGGER cabinets_mqtt_dynsec_delete AFTER DELETE ON cabinets
  FOR EACH ROW EXECUTE FUNCTION cabinets_mqtt_dynsec();
