-- Substring filters of the lists (name, phone, operator, content: ILIKE '%…%') use trigram indexes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX agencies_name_trgm_idx ON agencies USING gin (name gin_trgm_ops);
CREATE INDEX accounts_name_trgm_idx ON accounts USING gin (name gin_trgm_ops);
CREATE INDEX accounts_phone_trgm_idx ON accounts USING gin (phone gin_trgm_ops);
CREATE INDEX operation_logs_operator_trgm_idx ON operation_logs USING gin (operator gin_trgm_ops);
CREATE INDEX operation_logs_content_trgm_idx ON operation_logs USING gin (content gin_trgm_ops);
DROP INDEX IF EXISTS operation_logs_operator_idx;
