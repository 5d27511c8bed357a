/** The responder register's messages (zh-CN the spec's words, en-US), spread into the message table. */
export const responderMessages = {
  RESPONDER_NAME_REQUIRED: ['请输入姓名!', 'Please enter the name!'],
  RESPONDER_PHONE_PATTERN: ['请输入正确的电话号码', 'Please enter a valid phone number'],
  BIRTH_REQUIRED: ['请选择出生日期!', 'Please choose the date of birth!'],
  BIRTH_INVALID: ['出生日期不正确', 'The date of birth is not valid'],
  GENDER_REQUIRED: ['请选择性别!', 'Please choose the gender!'],
  RESPONDER_POINT_REQUIRED: [
    '请在地图上确认急救人员位置',
    'Please confirm the responder’s position on the map',
  ],
  RESIDENCE_PICK: ['请选择常驻地址', 'Please choose the resident address'],
  APTITUDE_REQUIRED: ['请选择急救资质', 'Please choose the first-aid qualification'],
  BIND_DEVICE_REQUIRED: [
    '请选择是否绑定机构设备',
    'Please choose whether to bind the organisation’s devices',
  ],
  CERT_NUM_REQUIRED: ['请输入证书编号', 'Please enter the certificate number'],
  CERT_EXPIRE_REQUIRED: ['请选择证书有效期', 'Please choose the certificate expiry'],
  CERT_IMG_REQUIRED: ['请添加证书图片!', 'Please add the certificate image!'],
  CERT_IMG_NOT_IMAGE: [
    '证书图片须为jpg、jpeg或png图片',
    'The certificate image must be a jpg, jpeg or png image',
  ],
  CERT_NUM_TAKEN: ['该证书编号已登记', 'This certificate number is already registered'],
  CERT_RENEW_DATE: ['新的证书有效期须晚于今天', 'The new certificate expiry must be after today'],
  CERT_RENEW_LAY: [
    '非专业急救人员没有证书可续期',
    'A non-professional responder has no certificate to renew',
  ],
  RESPONDER_EXISTS: ['该电话已登记为急救人员', 'This phone is already registered as a responder'],
  RESPONDER_ACCOUNT_ELSEWHERE: [
    '该电话的账号属于其他机构，请由其所在机构登记',
    'This phone’s account belongs to another organisation; that organisation must register it',
  ],
  RESPONDER_PHONE_LOCKED: ['编辑急救人员时不能修改电话', 'The phone cannot change when editing a responder'],
  RESPONDER_IMPORT_EMPTY: ['导入文件中没有急救人员', 'The file holds no responders'],
  RESPONDER_IMPORT_TOO_MANY: [
    '一次最多导入{max}名急救人员',
    'At most {max} responders can be imported at once',
  ],
  RESPONDER_IMPORT_PHONE_DUPLICATE: ['电话与第{row}行重复', 'The phone repeats row {row}'],
  RESPONDER_IMPORT_CERT_DUPLICATE: ['证书编号与第{row}行重复', 'The certificate number repeats row {row}'],
  RESPONDER_IMPORT_GENDER: ['性别须为男或女', 'Gender must be 男 or 女'],
  RESPONDER_IMPORT_DATE: ['{field}须为YYYY-MM-DD日期', '{field} must be a YYYY-MM-DD date'],
  RESPONDER_IMPORT_POINT: [
    '经纬度须为数字（GCJ-02，经度-180~180，纬度-90~90）',
    'Longitude and latitude must be numbers (GCJ-02, -180..180 and -90..90)',
  ],
  RESPONDER_IMPORT_APTITUDE: ['急救资质须为专业或非专业', 'The qualification must be 专业 or 非专业'],
  RESPONDER_IMPORT_BIND: ['绑定机构设备须为是或否', 'Bind devices must be 是 or 否'],
  MSG_TITLE_CERT_EXPIRING: [
    '证书到期提醒：急救人员{name}的证书将于{date}到期',
    'Certificate reminder: responder {name}’s certificate expires on {date}',
  ],
  MSG_TITLE_CERT_EXPIRED: [
    '证书已过期：急救人员{name}的证书已于{date}到期，暂停专业派单',
    'Certificate expired: responder {name}’s certificate expired on {date}; no professional alerts',
  ],
  SMS_CERT_EXPIRING: [
    '【AED云】{name}您好，您的急救证书（{num}）将于{date}到期，请及时复训并将新证书交给{agency}。',
    '[AED Cloud] {name}, your first-aid certificate ({num}) expires on {date}. Please renew it and give the new certificate to {agency}.',
  ],
  RESPONDER_CHANGE_CREATED: ['登记为{aptitude}急救人员', 'Registered as a {aptitude} responder'],
  RESPONDER_CHANGE_UPDATED: ['修改了{fields}', 'Changed {fields}'],
  RESPONDER_CHANGE_IMPORTED: ['批量导入登记为{aptitude}急救人员', 'Imported as a {aptitude} responder'],
  RESPONDER_CHANGE_RENEWED: ['证书续期至{expire}', 'Certificate renewed until {expire}'],
  RESPONDER_CHANGE_PAUSED: ['暂停派单，原因：{reason}', 'Alerts paused, reason: {reason}'],
  RESPONDER_CHANGE_RESUMED: ['恢复派单', 'Alerts resumed'],
  RESPONDER_CHANGE_REMINDED: [
    '证书将于{expire}到期（剩{days}天），已短信提醒本人并通知机构',
    'Certificate expires on {expire} ({days} days left): the responder was sent an SMS, the organisation a message',
  ],
  RESPONDER_CHANGE_EXPIRED: [
    '证书已于{expire}到期，暂停专业派单',
    'Certificate expired on {expire}: no professional alerts until renewed',
  ],
  RESPONDER_EXPORT_TOO_LARGE: [
    '导出数据过多（超过{max}条），请缩小筛选范围',
    'Too many rows to export (over {max}): narrow the filters',
  ],
  RESPONDER_SHEET: ['急救人员列表', 'Responders'],
} as const satisfies Record<string, readonly [string, string]>
