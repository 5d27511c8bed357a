-- Foundation: organisations, people, memberships, SMS codes, operation log, settings.

CREATE TABLE agencies (
  id            bigserial PRIMARY KEY,
  name          varchar(100) NOT NULL,
  agency_type   smallint NOT NULL CHECK (agency_type IN (0, 1, 2)),
  parent_id     bigint REFERENCES agencies (id),
  level         integer NOT NULL DEFAULT 1,
  -- Materialised path of ids, '/1/5/12/': a subtree is every row whose index_link starts with its root's.
  index_link    text NOT NULL DEFAULT '',
  phone         varchar(20),
  contact_name  varchar(50),
  location      varchar(200),
  address_code  varchar(6),
  disabled      boolean NOT NULL DEFAULT false,
  time_zone     text NOT NULL DEFAULT 'Asia/Shanghai',
  creator       bigint,
  create_time   timestamptz NOT NULL DEFAULT now(),
  update_time   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agencies_index_link_idx ON agencies (index_link text_pattern_ops);
CREATE INDEX agencies_parent_idx ON agencies (parent_id);
CREATE INDEX agencies_disabled_idx ON agencies (index_link) WHERE disabled;

CREATE TABLE accounts (
  id                  bigserial PRIMARY KEY,
  phone               varchar(11) NOT NULL UNIQUE,
  name                varchar(50) NOT NULL,
  email               varchar(100),
  gender              smallint,
  birth               date,
  nationality         varchar(10),
  location            varchar(200),
  location_desc       varchar(200),
  address_code        varchar(6),
  lat                 double precision,
  lon                 double precision,
  avatar              text,
  password_hash       text,
  password_changed_at timestamptz NOT NULL DEFAULT now(),
  -- Bumped when the password changes: tokens carrying an older version stop working.
  token_version       integer NOT NULL DEFAULT 0,
  sms_dual_verify     boolean NOT NULL DEFAULT false,
  failed_login_count  integer NOT NULL DEFAULT 0,
  locked_until        timestamptz,
  wechat_openid       text UNIQUE,
  last_member_id      bigint,
  creator             bigint,
  create_time         timestamptz NOT NULL DEFAULT now(),
  updator             bigint,
  update_time         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE members (
  id           bigserial PRIMARY KEY,
  account_id   bigint NOT NULL REFERENCES accounts (id),
  agency_id    bigint NOT NULL REFERENCES agencies (id),
  role_type    smallint NOT NULL CHECK (role_type IN (0, 1, 2)),
  permissions  jsonb NOT NULL DEFAULT '{}'::jsonb,
  use_expire   timestamptz,
  creator      bigint,
  create_time  timestamptz NOT NULL DEFAULT now(),
  updator      bigint,
  update_time  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, agency_id)
);
CREATE INDEX members_agency_idx ON members (agency_id);

CREATE TABLE sms_codes (
  id           bigserial PRIMARY KEY,
  phone        varchar(11) NOT NULL,
  scene        varchar(20) NOT NULL,
  code_hash    text NOT NULL,
  ip           varchar(64),
  attempts     integer NOT NULL DEFAULT 0,
  used         boolean NOT NULL DEFAULT false,
  create_time  timestamptz NOT NULL DEFAULT now(),
  expire_time  timestamptz NOT NULL
);
CREATE INDEX sms_codes_phone_idx ON sms_codes (phone, create_time DESC);
CREATE INDEX sms_codes_ip_idx ON sms_codes (ip, create_time DESC);

-- What the local SMS provider "sent": a development outbox instead of a vendor.
CREATE TABLE sms_outbox (
  id           bigserial PRIMARY KEY,
  phone        varchar(11) NOT NULL,
  content      text NOT NULL,
  create_time  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sms_outbox_phone_idx ON sms_outbox (phone, create_time DESC);

CREATE TABLE operation_logs (
  id              bigserial PRIMARY KEY,
  agency_id       bigint REFERENCES agencies (id),
  member_id       bigint,
  operator        varchar(50) NOT NULL,
  operation_type  varchar(50) NOT NULL,
  content         text NOT NULL,
  create_time     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX operation_logs_agency_time_idx ON operation_logs (agency_id, create_time DESC);
CREATE INDEX operation_logs_time_idx ON operation_logs (create_time DESC);

-- System settings (alert preferences) per agency.
CREATE TABLE agency_settings (
  agency_id    bigint PRIMARY KEY REFERENCES agencies (id),
  config       jsonb NOT NULL,
  update_time  timestamptz NOT NULL DEFAULT now()
);

-- One-time WeChat QR states, so a callback cannot be replayed or forged.
CREATE TABLE oauth_states (
  state        varchar(64) PRIMARY KEY,
  purpose      varchar(20) NOT NULL,
  member_id    bigint,
  expire_time  timestamptz NOT NULL
);
