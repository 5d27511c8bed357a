-- Public review (公众审核, issue 27, modules/review): volunteers and third-party AEDs submitted
-- through an integrator's mini-program (open API), reviewed by the system organisation, and the
-- two system-wide switches of 后台配置.

-- A citizen volunteering as a responder. audit_status 1 in review, 2 approved, 0 rejected.
CREATE TABLE volunteers (
  id                 bigserial PRIMARY KEY,
  submitter_name     varchar(50) NOT NULL,
  submitter_phone    varchar(11) NOT NULL,
  guard_area         varchar(200) NOT NULL,
  has_cert           smallint NOT NULL CHECK (has_cert IN (0, 1)),
  cert_img           varchar(500),
  -- The guarded area's point (GCJ-02): where dispatch alerts the volunteer from.
  lat                double precision,
  lon                double precision,
  audit_status       smallint NOT NULL DEFAULT 1 CHECK (audit_status IN (0, 1, 2)),
  rejected_reason    varchar(200),
  audit_time         timestamptz,
  auditor_id         bigint,
  auditor            varchar(50),
  -- The integrator's configuration and organisation that sent it (its webhook hears the outcome).
  config_id          bigint,
  agency_id          bigint REFERENCES agencies (id),
  -- The responder entry approval made (responder_created) or found (the phone was one already).
  responder_id       bigint REFERENCES responders (id) ON DELETE SET NULL,
  responder_created  boolean NOT NULL DEFAULT false,
  -- Possible duplicates found at submission: [{kind, id, sn, label, distance, similarity, reason, ...}].
  duplicates         jsonb NOT NULL DEFAULT '[]',
  create_time        timestamptz NOT NULL DEFAULT now(),
  update_time        timestamptz NOT NULL DEFAULT now()
);
-- One application in review per phone: a second one is the same (sent twice) or refused.
CREATE UNIQUE INDEX volunteers_in_review_phone_idx ON volunteers (submitter_phone) WHERE audit_status = 1;
CREATE INDEX volunteers_tab_idx ON volunteers (audit_status, id DESC);
CREATE INDEX volunteers_name_trgm_idx ON volunteers USING gin (submitter_name gin_trgm_ops);

-- An AED someone else owns, reported by a citizen.
CREATE TABLE third_party_aeds (
  id                 bigserial PRIMARY KEY,
  brand              varchar(20) NOT NULL,
  location           varchar(200) NOT NULL,
  location_desc      varchar(200),
  address_code       varchar(6),
  lat                double precision NOT NULL,
  lon                double precision NOT NULL,
  -- One or two site photos (URLs of this server's uploads).
  install_imgs       jsonb NOT NULL DEFAULT '[]',
  device_sn          varchar(64),
  submitter_name     varchar(50) NOT NULL,
  submitter_phone    varchar(11) NOT NULL,
  audit_status       smallint NOT NULL DEFAULT 1 CHECK (audit_status IN (0, 1, 2)),
  rejected_reason    varchar(200),
  audit_time         timestamptz,
  auditor_id         bigint,
  auditor            varchar(50),
  config_id          bigint,
  agency_id          bigint REFERENCES agencies (id),
  duplicates         jsonb NOT NULL DEFAULT '[]',
  create_time        timestamptz NOT NULL DEFAULT now(),
  update_time        timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX third_party_aeds_in_review_phone_idx ON third_party_aeds (submitter_phone) WHERE audit_status = 1;
CREATE INDEX third_party_aeds_tab_idx ON third_party_aeds (audit_status, id DESC);
CREATE INDEX third_party_aeds_brand_idx ON third_party_aeds (audit_status, brand, id DESC);
-- The approved ones near a point: the duplicate check, the nearby answer, the dashboard's layer.
CREATE INDEX third_party_aeds_earth_idx ON third_party_aeds USING gist (ll_to_earth(lat, lon)) WHERE audit_status = 2;
CREATE INDEX third_party_aeds_sn_idx ON third_party_aeds (device_sn) WHERE device_sn IS NOT NULL AND audit_status = 2;
CREATE INDEX third_party_aeds_region_idx ON third_party_aeds (address_code) WHERE audit_status = 2;

-- 后台配置: one row, system-wide.
CREATE TABLE backend_config (
  id                               boolean PRIMARY KEY DEFAULT true CHECK (id),
  -- 1: dispatch alerts approved public volunteers too.
  call_event_notify_aid_volunteer  smallint NOT NULL DEFAULT 0 CHECK (call_event_notify_aid_volunteer IN (0, 1)),
  -- 1: the open API's nearby answer lists approved third-party AEDs (readiness unknown).
  xcx_display_third_party_aed      smallint NOT NULL DEFAULT 0 CHECK (xcx_display_third_party_aed IN (0, 1)),
  updator                          varchar(50),
  update_time                      timestamptz
);
INSERT INTO backend_config DEFAULT VALUES;

-- An approved volunteer is a public responder of the system organisation: dispatch alerts them
-- for any call near them while call_event_notify_aid_volunteer is 1.
ALTER TABLE responders ADD COLUMN volunteer boolean NOT NULL DEFAULT false;
CREATE INDEX responders_volunteer_idx ON responders (account_id) WHERE volunteer;

-- SMS kind 'review': a submitter hears the outcome.
ALTER TABLE sms_outbox DROP CONSTRAINT IF EXISTS sms_outbox_kind_check;
ALTER TABLE sms_outbox ADD CONSTRAINT sms_outbox_kind_check
  CHECK (kind IN ('code', 'aid', 'status', 'escalation', 'digest', 'certificate', 'dispatch', 'review'));

-- Message types 8 and 9: a new volunteer or third-party AED for the reviewers.
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_msg_type_check;
ALTER TABLE messages ADD CONSTRAINT messages_msg_type_check CHECK (msg_type BETWEEN 1 AND 9);
-- Its event: 8 a volunteer, 9 a third-party AED (the submission's id).
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_event_type_check;
ALTER TABLE messages ADD CONSTRAINT messages_event_type_check CHECK (event_type BETWEEN 1 AND 9);
