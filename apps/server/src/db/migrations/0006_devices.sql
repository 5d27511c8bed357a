-- The device registry. A device is hardware: every device made exists here first (the factory
-- list); installing it at a site (an installation) puts it on the device list.
CREATE TABLE devices (
  id                 bigserial PRIMARY KEY,
  device_sn          varchar(32) NOT NULL,
  -- From characters 2-3 of the serial (64 D100 ... 75 E10A); '' when the code is unknown.
  model              varchar(16) NOT NULL DEFAULT '',
  fw_version         varchar(32),
  -- The owning organisation (factory assignment); an installation may sit below it.
  agency_id          bigint NOT NULL REFERENCES agencies (id),
  -- One secret per device, encrypted at rest (AES-256-GCM under the server's key); the previous
  -- one keeps working until prev_secret_until after a rotation.
  secret_enc         text NOT NULL,
  prev_secret_enc    text,
  prev_secret_until  timestamptz,
  -- The installation the device sits in now; NULL: not registered (is_register 0).
  installation_id    bigint,
  -- Status 0-4 as the engine derives it (0 until the device reports), and the last battery level.
  status             smallint NOT NULL DEFAULT 0 CHECK (status BETWEEN 0 AND 4),
  battery            smallint CHECK (battery BETWEEN 0 AND 100),
  creator            bigint,
  create_time        timestamptz NOT NULL DEFAULT now(),
  update_time        timestamptz NOT NULL DEFAULT now(),
  -- A deleted device keeps its history; the gateway refuses it and the lists leave it out.
  deleted_at         timestamptz
);
CREATE UNIQUE INDEX devices_sn_live_idx ON devices (device_sn) WHERE deleted_at IS NULL;
CREATE INDEX devices_sn_trgm_idx ON devices USING gin (device_sn gin_trgm_ops);
CREATE INDEX devices_agency_idx ON devices (agency_id, create_time DESC) WHERE deleted_at IS NULL;
CREATE INDEX devices_installation_idx ON devices (installation_id);

-- An installation is a site (register_code): where a device is installed, who looks after it,
-- when it is open, what its consumables expire. Routine changes edit it, a move changes its
-- place, a replacement puts another device in it, deleting the install information ends it.
-- Register codes: R + the day + this sequence, unique without a race.
CREATE SEQUENCE installation_code_seq;

CREATE TABLE installations (
  id                           bigserial PRIMARY KEY,
  register_code                varchar(32) NOT NULL UNIQUE,
  -- The device installed now; NULL once the installation is removed.
  device_id                    bigint REFERENCES devices (id),
  agency_id                    bigint NOT NULL REFERENCES agencies (id),
  -- Navigation address and the detail (floor, room) beside it.
  location                     varchar(200) NOT NULL,
  location_desc                varchar(200),
  address_code                 varchar(6),
  -- GCJ-02, the datum of Chinese basemaps.
  lat                          double precision NOT NULL,
  lon                          double precision NOT NULL,
  device_manager_id            bigint REFERENCES members (id) ON DELETE SET NULL,
  contact                      varchar(50),
  contact_phone                varchar(20),
  -- 0 closed, 1 semi-open (open_day 1-7, Monday first, and open_time_period), 2 fully open.
  open_state                   smallint NOT NULL CHECK (open_state IN (0, 1, 2)),
  open_day                     smallint[] NOT NULL DEFAULT '{}',
  open_time_period             jsonb NOT NULL DEFAULT '[]'::jsonb,
  xcx_display                  smallint NOT NULL DEFAULT 1 CHECK (xcx_display IN (0, 1)),
  disable_abnormal_sms_notify  smallint NOT NULL DEFAULT 0 CHECK (disable_abnormal_sms_notify IN (0, 1)),
  disable_abnormal_display     smallint NOT NULL DEFAULT 0 CHECK (disable_abnormal_display IN (0, 1)),
  chest_shot_img               text NOT NULL,
  long_shot_img                text NOT NULL,
  battery_expire               date NOT NULL,
  electrode_sheet_expire       date NOT NULL,
  host_expire                  date NOT NULL,
  -- Geofence radius in metres: overrides the organisation's location-offset threshold.
  safety_radius                integer CHECK (safety_radius BETWEEN 0 AND 10000),
  registrant                   bigint,
  register_time                timestamptz NOT NULL DEFAULT now(),
  updator                      bigint,
  update_time                  timestamptz NOT NULL DEFAULT now(),
  removed_at                   timestamptz
);
CREATE UNIQUE INDEX installations_device_live_idx ON installations (device_id) WHERE removed_at IS NULL;
CREATE INDEX installations_agency_idx ON installations (agency_id, register_time DESC) WHERE removed_at IS NULL;
CREATE INDEX installations_address_idx ON installations (address_code text_pattern_ops) WHERE removed_at IS NULL;
CREATE INDEX installations_manager_idx ON installations (device_manager_id) WHERE removed_at IS NULL;
CREATE INDEX installations_expiry_idx ON installations (battery_expire, electrode_sheet_expire, host_expire)
  WHERE removed_at IS NULL;

ALTER TABLE devices ADD CONSTRAINT devices_installation_fk
  FOREIGN KEY (installation_id) REFERENCES installations (id);

-- The change record of an installation: register (0), routine change (1), move (2), replace (3),
-- delete (5). update_field lists what changed, in the console's words.
CREATE TABLE installation_changes (
  id               bigserial PRIMARY KEY,
  installation_id  bigint NOT NULL REFERENCES installations (id),
  update_type      smallint NOT NULL CHECK (update_type IN (0, 1, 2, 3, 5)),
  update_field     text NOT NULL DEFAULT '',
  -- The serial that left the site on a replacement (and the removed one on a delete).
  old_device_sn    varchar(32),
  updator          bigint,
  updator_name     varchar(50) NOT NULL,
  update_time      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX installation_changes_idx ON installation_changes (installation_id, update_time DESC);

-- Routine inspections staff record from the device detail.
CREATE TABLE device_inspections (
  id               bigserial PRIMARY KEY,
  device_id        bigint NOT NULL REFERENCES devices (id),
  installation_id  bigint REFERENCES installations (id),
  agency_id        bigint NOT NULL REFERENCES agencies (id),
  -- 1 normal, 0 abnormal.
  inspect_status   smallint NOT NULL CHECK (inspect_status IN (0, 1)),
  process_content  varchar(500) NOT NULL DEFAULT '',
  inspector_name   varchar(50) NOT NULL,
  inspect_time     timestamptz NOT NULL,
  img              text,
  creator          bigint,
  create_time      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_inspections_device_idx ON device_inspections (device_id, inspect_time DESC);
CREATE INDEX device_inspections_time_idx ON device_inspections (inspect_time DESC);
