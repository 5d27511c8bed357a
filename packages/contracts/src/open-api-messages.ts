/** The open API's and the webhooks' messages (zh-CN, en-US), spread into the message table. */
export const openApiMessages = {
  OPEN_API_KEY_MISSING: ['缺少X-AED-Key请求头', 'The X-AED-Key header is missing'],
  OPEN_API_KEY_UNKNOWN: ['X-AED-Key无效', 'Unknown X-AED-Key'],
  OPEN_API_KEY_DISABLED: [
    '服务配置或其机构已停用',
    'The service configuration or its organisation is disabled',
  ],
  OPEN_API_TIMESTAMP_INVALID: [
    'X-AED-Timestamp须为Unix时间戳（秒）',
    'X-AED-Timestamp must be a Unix time in seconds',
  ],
  OPEN_API_TIMESTAMP_EXPIRED: [
    'X-AED-Timestamp与服务器时间相差超过5分钟',
    'X-AED-Timestamp is more than 5 minutes away from the server time',
  ],
  OPEN_API_NONCE_INVALID: ['X-AED-Nonce须为16-64位字母或数字', 'X-AED-Nonce must be 16-64 letters or digits'],
  OPEN_API_NONCE_REUSED: ['X-AED-Nonce已使用过', 'This X-AED-Nonce was used before'],
  OPEN_API_SIGNATURE_MISSING: [
    'X-AED-Signature缺失或格式错误（64位小写十六进制）',
    'X-AED-Signature is missing or malformed (64 lowercase hex digits)',
  ],
  OPEN_API_SIGNATURE_MISMATCH: [
    '签名不匹配：请按文档核对待签名字符串（data.string_to_sign）与密钥',
    'The signature does not match: compare your string to sign with data.string_to_sign, and the secret',
  ],
  OPEN_API_BODY_MISMATCH: [
    '请求体与签名时不一致（X-AED-Content-SHA256）',
    'The body differs from the one signed (X-AED-Content-SHA256)',
  ],
  OPEN_API_SERVICE_DENIED: [
    '服务配置未开通此接口所需的服务：{service}',
    'The service configuration lacks the service this call needs: {service}',
  ],
  OPEN_API_RATE_LIMITED: ['请求过于频繁，请{seconds}秒后重试', 'Too many requests: retry in {seconds} s'],
  OPEN_API_LAT_INVALID: ['纬度须为-90到90之间的数字', 'lat must be a number from -90 to 90'],
  OPEN_API_LON_INVALID: ['经度须为-180到180之间的数字', 'lon must be a number from -180 to 180'],
  OPEN_API_RADIUS_INVALID: ['radius须为正整数（米）', 'radius must be a positive whole number of metres'],
  OPEN_API_RADIUS_TOO_LARGE: ['radius不能超过5000米', 'radius can be at most 5000 metres'],
  OPEN_API_LIMIT_INVALID: ['limit须为正整数', 'limit must be a positive whole number'],
  OPEN_API_LIMIT_TOO_LARGE: ['limit不能超过50', 'limit can be at most 50'],
  OPEN_API_COORD_INVALID: ['coord须为gcj02或wgs84', 'coord must be gcj02 or wgs84'],
  OPEN_API_CHANGED_SINCE_INVALID: [
    'changed_since须为带时区的ISO时间',
    'changed_since must be an ISO time with its offset',
  ],
  OPEN_API_SN_INVALID: ['设备序列号格式不正确', 'Invalid device serial'],
  OPEN_API_AED_NOT_FOUND: ['设备不存在', 'No such device'],
  PAGE_INVALID: ['page须为正整数，page_size为1到500', 'page must be positive and page_size 1 to 500'],
  PUSH_URL_INVALID: ['推送地址须为http(s)网址', 'The push URL must be an http(s) URL'],
  PUSH_URL_PRIVATE: ['推送地址不能是本机或内网地址', 'The push URL cannot be a loopback or private address'],
  PUSH_URL_NEEDS_SERVICE: [
    '推送地址需要开通事件推送或设备数据推送',
    'A push URL needs the event push or device data push service',
  ],
  WEBHOOK_NO_ENDPOINT: ['该配置没有可用的推送地址', 'This configuration has no enabled push URL'],
  WEBHOOK_RESENT: ['已重新发送', 'Sent again'],
  WEBHOOK_TEST_SENT: ['测试事件已发送', 'Test event sent'],
} as const satisfies Record<string, readonly [string, string]>
