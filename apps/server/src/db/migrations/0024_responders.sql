-- First-aid responders (急救人员, issue 24, modules/responder).
--
-- A responder is a person (an account, shared with console members: one account per phone) in
-- an organisation's register. The person's profile and resident place are the account's; the
-- register holds the qualification, the certificate, the bound-devices flag and the pause. Age and
-- certificate status are derived from today's date when read, never stored.
CREATE TABLE responders (
  id                  bigserial PRIMARY KEY,
  account_id          bigint NOT NULL REFERENCES accounts (id),
  agency_id           bigint NOT NULL REFERENCES agencies (id),
  -- 0 non-professional, 1 professional (certificate required).
  aid_aptitude        smallint NOT NULL CHECK (aid_aptitude IN (0, 1)),
  certificate_num     varchar(50),
  certificate_expire  date,
  certificate_img     varchar(500),
  -- 1: may use the organisation's devices (绑定机构设备).
  status              smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1)),
  -- A paused responder is never alerted (on holiday, moved away).
  paused              boolean NOT NULL DEFAULT false,
  pause_reason        varchar(100),
  paused_at           timestamptz,
  creator             bigint,
  create_time         timestamptz NOT NULL DEFAULT now(),
  updator             bigint,
  update_time         timestamptz NOT NULL DEFAULT now()
);
-- One register entry per person in the whole network: dispatch must not alert someone twice.
CREATE UNIQUE INDEX responders_account_idx ON responders (account_id);
CREATE INDEX responders_agency_idx ON responders (agency_id, id DESC);
CREATE INDEX responders_cert_num_idx ON responders (certificate_num) WHERE certificate_num IS NOT NULL;
-- The daily certificate check reads professionals by expiry.
CREATE INDEX responders_cert_expire_idx ON responders (certificate_expire) WHERE aid_aptitude = 1;

-- A responder's history: who did what and when. The system's notices (reminded 30 or 7 days
-- before, expired) are written once per certificate expiry: the unique index makes the daily
-- check idempotent across restarts and instances, and the SMS and message ride on the insert.
CREATE TABLE responder_changes (
  id            bigserial PRIMARY KEY,
  responder_id  bigint NOT NULL REFERENCES responders (id) ON DELETE CASCADE,
  kind          varchar(20) NOT NULL,
  detail        jsonb NOT NULL DEFAULT '{}',
  -- The certificate expiry a system notice was about.
  cert_expire   date,
  operator_id   bigint,
  operator      varchar(50),
  create_time   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX responder_changes_responder_idx ON responder_changes (responder_id, id DESC);
CREATE UNIQUE INDEX responder_changes_notice_idx ON responder_changes (responder_id, kind, cert_expire)
  WHERE kind IN ('reminded_30', 'reminded_7', 'expired');

-- The dashboard's responder layer and dispatch read accounts' places by region and by distance.
CREATE INDEX accounts_address_idx ON accounts (address_code text_pattern_ops) WHERE lat IS NOT NULL;

-- Message type 7: a responder's certificate expires soon or has expired (its organisation's
-- message centre; not an alarm). Its event is the responder_changes row of the notice.
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_msg_type_check;
ALTER TABLE messages ADD CONSTRAINT messages_msg_type_check CHECK (msg_type BETWEEN 1 AND 7);
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_event_type_check;
ALTER TABLE messages ADD CONSTRAINT messages_event_type_check CHECK (event_type BETWEEN 1 AND 7);

-- SMS kind 'certificate': a responder reminded that their certificate expires in 30 or 7 days.
ALTER TABLE sms_outbox DROP CONSTRAINT IF EXISTS sms_outbox_kind_check;
ALTER TABLE sms_outbox ADD CONSTRAINT sms_outbox_kind_check
  CHECK (kind IN ('code', 'aid', 'status', 'escalation', 'digest', 'certificate'));
