import { callMessages } from './call-messages.ts'
import { coverageMessages } from './coverage-messages.ts'
import { dispatchMessages } from './dispatch-messages.ts'
import { openApiMessages } from './open-api-messages.ts'
import { responderMessages } from './responder-messages.ts'
import { reviewMessages } from './review-messages.ts'

/**
 * Every message the server can put in `msg`, in zh-CN (the spec's words) and en-US.
 * Validation schemas carry a key of this table as their message; the server translates it.
 */
export const messages = {
  OK: ['成功', 'Success'],
  TOKEN_INVALID: ['登录已失效，请重新登录', 'Your session has expired, please sign in again'],
  /** A device or integrator whose credentials were refused: says nothing more on purpose. */
  UNAUTHORIZED: ['认证失败', 'Authentication failed'],
  FORBIDDEN: ['无权限操作！', 'You do not have permission for this operation!'],
  NO_PERMISSION: ['暂无权限!', 'No permission!'],
  INVALID_INPUT: ['参数错误', 'Invalid parameters'],
  NOT_FOUND: ['资源不存在', 'Not found'],
  ROUTE_NOT_FOUND: ['接口不存在', 'No such endpoint'],
  INTERNAL: ['服务器错误，请稍后重试', 'Server error, please try again later'],
  DB_UNAVAILABLE: ['数据库不可用', 'Database unavailable'],
  /** GET /api/ready: migrating, or the database or the MQTT broker not reachable (data says which). */
  NOT_READY: ['服务尚未就绪', 'Not ready to serve'],
  // sign-in
  PRIVACY_REQUIRED: ['请先阅读隐私协议', 'Please read and accept the privacy policy first'],
  PHONE_INVALID: ['请输入正确的手机号', 'Please enter a valid mobile number'],
  PASSWORD_REQUIRED: ['请输入密码', 'Please enter your password'],
  SMS_CODE_REQUIRED: ['请输入验证码', 'Please enter the verification code'],
  LOGIN_WAY_INVALID: ['登录方式不正确', 'Unsupported sign-in method'],
  MEMBER_TYPE_INVALID: ['用户类型不正确', 'Unsupported member type'],
  LOGIN_FAILED: ['手机号或密码错误', 'Wrong mobile number or password'],
  SMS_CODE_WRONG: ['验证码错误或已过期', 'The verification code is wrong or has expired'],
  ACCOUNT_LOCKED: [
    '登录失败次数过多，账号已锁定，请{minutes}分钟后再试',
    'Too many failed sign-ins: the account is locked, try again in {minutes} minutes',
  ],
  NO_MEMBERSHIP: ['该账号未加入任何可用机构', 'This account belongs to no active organisation'],
  MEMBERSHIP_EXPIRED: ['账号使用期限已到期', 'This account’s usage period has expired'],
  AGENCY_DISABLED: ['所在机构已被禁用', 'Your organisation has been disabled'],
  MEMBERSHIP_NOT_FOUND: ['未找到该机构的成员身份', 'You are not a member of that organisation'],
  // SMS
  SMS_TOO_SOON: [
    '验证码发送过于频繁，请{seconds}秒后再试',
    'Please wait {seconds} s before requesting another code',
  ],
  SMS_PHONE_LIMIT: ['该手机号今日验证码发送次数已达上限', 'This number has reached today’s limit of codes'],
  SMS_IP_LIMIT: ['请求过于频繁，请稍后再试', 'Too many requests, please try again later'],
  SMS_SENT: ['验证码已发送', 'Verification code sent'],
  // passwords
  PASSWORD_RULE: [
    '密码必需包含8-20位字母和数字！',
    'The password must be 8-20 characters with letters and digits!',
  ],
  PASSWORD_MISMATCH: ['两次密码不一致', 'The two passwords do not match'],
  OLD_PASSWORD_REQUIRED: ['请输入原密码', 'Please enter your current password'],
  OLD_PASSWORD_WRONG: ['原密码错误', 'The current password is wrong'],
  PASSWORD_SAME: ['新密码不能与原密码相同', 'The new password must differ from the current one'],
  FORGET_PHONE_INVALID: ['请输入正确的手机号', 'Please enter a valid mobile number'],
  ACCOUNT_NOT_FOUND: ['该手机号未注册', 'No account uses this mobile number'],
  MODIFY_OK: ['修改成功！', 'Modified successfully!'],
  // WeChat
  WECHAT_NOT_CONFIGURED: [
    '未配置微信登录，请使用手机号登录',
    'WeChat sign-in is not configured; please sign in with your mobile number',
  ],
  WECHAT_NOT_BOUND: [
    '该微信未绑定账号，请先使用手机号登录并绑定微信',
    'This WeChat is not bound to an account: sign in by mobile and bind it first',
  ],
  WECHAT_ALREADY_BOUND: ['该微信已绑定其他账号', 'This WeChat is already bound to another account'],
  WECHAT_FAILED: ['微信授权失败，请重试', 'WeChat authorisation failed, please try again'],
  WECHAT_STATE_INVALID: [
    '二维码已过期，请刷新后重试',
    'The QR code has expired, please refresh and try again',
  ],
  BIND_OK: ['绑定成功', 'Bound successfully'],
  UNBIND_OK: ['解绑成功', 'Unbound successfully'],
  NOT_BOUND: ['当前账号未绑定微信', 'This account is not bound to WeChat'],
  // users
  USER_NAME_REQUIRED: ['请输入用户名', 'Please enter the user name'],
  CONTACT_PHONE_REQUIRED: ['请输入联系电话!', 'Please enter the contact phone!'],
  CONTACT_PHONE_WRONG: ['请输入正确的联系电话!', 'Please enter a valid contact phone!'],
  EMAIL_REQUIRED: ['请输入邮箱!', 'Please enter the email!'],
  EMAIL_WRONG: ['请输入正确的邮箱!', 'Please enter a valid email!'],
  NATIONALITY_REQUIRED: ['请选择国籍', 'Please choose the nationality'],
  RESIDENCE_REQUIRED: ['请输入住址', 'Please enter the address'],
  ADDRESS_PICK: ['请选择地址!', 'Please pick the address!'],
  ROLE_REQUIRED: ['请选择角色', 'Please choose the role'],
  PERMISSION_REQUIRED: ['请选择权限', 'Please choose the permissions'],
  MEMBER_AGENCY_REQUIRED: ['请选择所在机构', 'Please choose the organisation'],
  ROLE_NOT_ALLOWED: ['无权设置该角色', 'You may not give this role'],
  PERMISSION_LEVEL_NOT_ALLOWED: ['无权授予该权限级别', 'You may not grant this permission level'],
  PERMISSION_GENERAL_MEMBER: [
    '普通用户不能授予权限管理',
    'General users cannot be granted permission management',
  ],
  PERMISSION_READ_ONLY_AREA: [
    '概览看板和急救事件只能为仅查看',
    'Overview board and aid events are read-only',
  ],
  MEMBER_EXISTS: ['该用户已在此机构中', 'This person is already a user of that organisation'],
  MEMBER_OUTRANKS: ['无权操作更高角色的用户', 'You may not act on a user of a higher role'],
  MEMBER_SELF: [
    '不能修改或删除自己的角色和权限',
    'You cannot change or delete your own role and permissions',
  ],
  PHONE_LOCKED: ['编辑用户时不能修改手机号', 'The phone cannot change when editing a user'],
  ASSIGN_OK: ['分配成功！', 'Assigned successfully!'],
  // system settings and service configuration
  SETTINGS_INVALID: ['设置值不正确', 'Invalid setting value'],
  SETTINGS_TIME_INVALID: ['请输入正确的时间（HH:mm）', 'Enter a time as HH:mm'],
  SETTINGS_TIME_ORDER: ['开始时间不能大于结束时间！', 'The start time cannot be after the end time!'],
  SERVICE_REQUIRED: ['请选择服务配置', 'Please choose the services'],
  SERVICE_EMPTY: ['服务配置不能为空！', 'The services cannot be empty!'],
  SERVICE_UNKNOWN: ['服务配置不存在', 'Unknown service'],
  STATE_REQUIRED: ['请选择是否启用', 'Please choose whether it is enabled'],
  SERVICE_CONFIG_EXISTS: ['该机构已有服务配置', 'This organisation already has a service configuration'],
  ORDER_INVALID: ['不支持按该字段排序', 'This list cannot be sorted by that field'],
  DATE_INVALID: ['日期格式不正确', 'Invalid date'],
  DATE_ORDER: ['开始时间不能大于结束时间！', 'The start time cannot be after the end time!'],
  EXPORT_TOO_LARGE: ['导出数据过多，请缩小时间范围', 'Too many rows to export: narrow the date range'],
  // organisations
  AGENCY_NAME_REQUIRED: ['请输入机构名称', 'Please enter the organisation name'],
  AGENCY_TYPE_REQUIRED: ['请选择机构类型', 'Please choose the organisation type'],
  AGENCY_CONTACT_REQUIRED: ['请选择机构联系人', 'Please enter the contact person'],
  AGENCY_PHONE_REQUIRED: ['请输入联系电话', 'Please enter the contact phone'],
  PHONE_WRONG: ['请输入正确的联系电话!', 'Please enter a valid contact phone!'],
  ADDRESS_TO_DISTRICT: ['地址需要选择到区!', 'The address must be chosen down to the district!'],
  TEXT_TOO_LONG: ['内容过长', 'Too long'],
  FILTER_TOO_LONG: ['字符长度不超过50', 'At most 50 characters'],
  AGENCY_TYPE_NOT_ALLOWED: ['无权创建该类型的机构', 'You may not create an organisation of this type'],
  AGENCY_PARENT_INVALID: ['上级机构不正确', 'The parent organisation is not valid for this type'],
  AGENCY_NAME_TAKEN: [
    '同一上级下已存在同名机构',
    'An organisation of this name already exists under that parent',
  ],
  AGENCY_MOVE_INTO_ITSELF: [
    '不能将机构移动到其下级机构之下',
    'An organisation cannot move under its own subtree',
  ],
  AGENCY_OWN: ['不能禁用或移动本机构', 'You cannot disable or move your own organisation'],
  AGENCY_HAS_CHILDREN: [
    '该机构下有下级机构，不能改为普通机构',
    'It has organisations below it, so it cannot become ordinary',
  ],
  AGENCY_SYSTEM_TYPE: ['系统机构的类型不可修改', 'The system organisation keeps its type'],
  DISABLE_OK: ['禁用成功！', 'Disabled!'],
  ENABLE_OK: ['启用成功！', 'Enabled!'],
  ADD_OK: ['添加成功！', 'Added successfully!'],
  DELETE_OK: ['删除成功！', 'Deleted successfully!'],
  SAVE_OK: ['保存成功', 'Saved'],
  // files, classroom, map (content)
  FILE_REQUIRED: ['请选择要上传的文件！', 'Please choose a file to upload!'],
  ALLOW_SUFFIX_REQUIRED: ['请指定允许上传的文件类型', 'Please say which file types may be uploaded'],
  FILE_SUFFIX_NOT_ALLOWED: ['只能上传{suffixes}格式的文件！', 'Only {suffixes} files can be uploaded!'],
  FILE_TOO_LARGE: ['文件大小不能超过20M！', 'The file size cannot exceed 20M!'],
  // An image upload's refusals, in the console before sending and on the server (spec 5).
  IMAGE_INVALID: ['只能上传jpg/jpeg/png格式的图片！', 'only jpg/jpeg/png images can be uploaded!'],
  IMAGE_TOO_LARGE: ['图片大小不能超过20M！', 'image size cannot exceed 20M!'],
  FILE_EMPTY: ['文件内容为空！', 'The file is empty!'],
  FILE_CONTENT_MISMATCH: [
    '文件内容与后缀不符，请上传真实的{suffix}文件！',
    'The file content does not match its suffix: please upload a real {suffix} file!',
  ],
  FILE_TEXT_INVALID: ['txt文件必须是UTF-8编码的纯文本！', 'A txt file must be plain text in UTF-8!'],
  FILE_NOT_FOUND: ['文件不存在', 'File not found'],
  UPLOAD_OK: ['上传成功', 'Uploaded'],
  CLASSROOM_TYPE_REQUIRED: ['类型不能为空！', 'The type cannot be empty!'],
  CLASSROOM_TYPE_INVALID: ['类型不正确！', 'Unknown type!'],
  CLASSROOM_TITLE_REQUIRED: ['标题不能为空！', 'The title cannot be empty!'],
  CLASSROOM_TITLE_TOO_LONG: ['标题不能超过20个字！', 'The title cannot exceed 20 characters!'],
  CLASSROOM_COVER_REQUIRED: ['封面插图不能为空！', 'The cover image cannot be empty!'],
  CLASSROOM_COVER_INVALID: ['封面插图地址不正确！', 'The cover image address is not valid!'],
  CLASSROOM_LINK_REQUIRED: ['链接不能为空！', 'The link cannot be empty!'],
  CLASSROOM_LINK_INVALID: [
    '链接必须以http://或https://开头！',
    'The link must start with http:// or https://!',
  ],
  CLASSROOM_DESCRIBE_REQUIRED: ['内容简介不能为空！', 'The content summary cannot be empty!'],
  CLASSROOM_CONTENT_TYPE_INVALID: [
    '内容类型只能是外部链接或富文本！',
    'The content type must be an external link or rich text!',
  ],
  REGION_CODE_UNKNOWN: ['未知的行政区划代码', 'Unknown region code'],
  MAP_KEYWORD_REQUIRED: ['请输入搜索关键词', 'Please enter a search keyword'],
  MAP_COORDINATE_INVALID: ['经纬度不正确', 'The latitude or longitude is not valid'],
  MAP_REVERSE_OFFLINE: [
    '离线地图无法根据经纬度解析地址，请手动选择所在地区',
    'The offline map cannot turn coordinates into an address; please choose the region by hand',
  ],
  MAP_PROVIDER_FAILED: [
    '地图服务暂时不可用，请稍后重试',
    'The map service is unavailable for now, please try again later',
  ],
  // input the shared layer refuses before any route sees it
  NUL_CHARACTER: [
    '参数不能包含空字符（\\u0000）：{field}',
    'Parameters cannot contain the NUL character (\\u0000): {field}',
  ],
  REQUEST_TOO_LARGE: ['请求过大：网址或请求头过长', 'Request too large: the URL or the headers are too long'],
  REQUEST_TIMEOUT: ['请求超时，请重试', 'The request timed out, please try again'],
  ALLOW_SUFFIX_UNSUPPORTED: [
    '不支持指定的文件类型，只能上传{suffixes}格式的文件！',
    'None of the given file types can be uploaded: only {suffixes} files can be!',
  ],
  SMS_GLOBAL_LIMIT: [
    '验证码发送繁忙，请稍后再试',
    'Too many verification codes are being sent, please try again later',
  ],
  // devices
  DEVICE_SN_REQUIRED: ['请输入设备SN', 'Please enter the device serial'],
  DEVICE_AGENCY_REQUIRED: ['请选择所属机构', 'Please choose the organisation'],
  DEVICE_LOCATION_REQUIRED: ['请选择安装位置', 'Please choose the installation place'],
  OPEN_STATE_REQUIRED: ['请选择开放状态', 'Please choose when it is open'],
  OPEN_DAY_REQUIRED: ['请选择开放日', 'Please choose the open days'],
  OPEN_PERIOD_REQUIRED: ['请选择开放时段', 'Please choose the opening hours'],
  XCX_DISPLAY_REQUIRED: ['请选择是否在小程序显示', 'Please choose whether the mini-program shows it'],
  CHEST_IMG_REQUIRED: ['请添加设备近景图片！', 'Please add a close-up photo of the device!'],
  LONG_IMG_REQUIRED: ['请添加设备远景图片！', 'Please add a far-view photo of the device!'],
  BATTERY_EXPIRE_REQUIRED: ['请选择电池有效期', 'Please choose the battery expiry date'],
  ELECTRODE_EXPIRE_REQUIRED: ['请选择电极片有效期', 'Please choose the electrode pad expiry date'],
  HOST_EXPIRE_REQUIRED: ['请选择主机有效期', 'Please choose the device expiry date'],
  EXPIRE_BEFORE_TODAY: ['有效期不能早于今天', 'An expiry date cannot be before today'],
  SAFETY_RADIUS_RANGE: ['请输入0-10000的数字', 'Enter a number from 0 to 10000'],
  UPDATE_TYPE_REQUIRED: ['请选择变更类型', 'Please choose the kind of change'],
  NEW_SN_REQUIRED: ['请输入新设备SN', 'Please enter the serial of the new device'],
  LOCATION_UNCHANGED: ['请修改导航地址！', 'Please change the navigation address!'],
  SN_UNCHANGED: ['请修改设备SN！', 'Please change the device serial!'],
  DEVICE_NOT_FOUND: ['未找到设备！', 'Device not found!'],
  DEVICE_REGISTERED: ['该设备已注册', 'This device is already registered'],
  DEVICE_STILL_REGISTERED: [
    '设备已注册，请先删除安装信息',
    'The device is registered: delete its install information first',
  ],
  DEVICE_MANAGER_INVALID: ['请选择正确的设备管理员', 'Please choose a device manager of the organisation'],
  DEVICE_ASSIGN_EMPTY: ['请选择需要分配的设备！', 'Please choose the devices to assign!'],
  CLEAN_SN_REQUIRED: ['请输入设备sn！', 'Please enter the device serial!'],
  CLEAN_SN_INVALID: ['请输入正确的设备sn！', 'Please enter a correct device serial!'],
  CLEAN_TYPE_REQUIRED: ['请选择删除信息！', 'Please choose what to delete!'],
  CLEAN_OK: ['清除成功！', 'Cleared!'],
  DETAIL_TYPE_INVALID: ['请选择正确的数据类型', 'Please choose a valid kind of record'],
  INSPECT_STATUS_REQUIRED: ['请选择巡检结果', 'Please choose the inspection result'],
  INSPECTOR_REQUIRED: ['请输入巡检人', 'Please enter the inspector'],
  INSPECT_TIME_REQUIRED: ['请选择巡检时间', 'Please choose the inspection time'],
  INSPECT_TIME_FUTURE: ['巡检时间不能晚于当前时间', 'The inspection time cannot be in the future'],
  // device exports and the factory import
  EXPORT_TYPE_REQUIRED: ['请选择导出类型', 'Please choose what to export'],
  IMPORT_OK: ['导入成功！', 'Imported!'],
  IMPORT_FAILED: ['导入失败！', 'Import failed!'],
  IMPORT_FILE_REQUIRED: ['请选择导入文件！', 'Please choose the file to import!'],
  IMPORT_FILE_TOO_LARGE: ['导入文件大小不能超过5M！', 'The import file cannot exceed 5M!'],
  IMPORT_TEMPLATE_INVALID: [
    '导入文件格式不正确，请使用导入模板',
    'The file does not follow the import template: please use the template',
  ],
  IMPORT_EMPTY: ['导入文件中没有设备', 'The import file holds no devices'],
  IMPORT_TOO_MANY_ROWS: ['一次最多导入{max}台设备', 'At most {max} devices can be imported at once'],
  IMPORT_SN_REQUIRED: ['设备SN不能为空', 'The device serial is empty'],
  IMPORT_SN_FORMAT: [
    '设备SN格式不正确（6-32位字母或数字）',
    'Invalid device serial (6-32 letters or digits)',
  ],
  IMPORT_SN_DUPLICATE: ['设备SN与第{row}行重复', 'The device serial repeats row {row}'],
  IMPORT_SN_TAKEN: ['设备SN已存在', 'A device with this serial exists already'],
  /** A serial names one device: an AED or a rescue cabinet, never both (the gateway looks in both). */
  DEVICE_SN_USED_BY_CABINET: ['序列号{sn}已被救护箱使用', 'Serial {sn} is in use by a rescue cabinet'],
  IMPORT_MODEL_MISMATCH: [
    '型号与设备SN不符，应为{model}或不填',
    'The model does not match the serial: {model}, or leave it empty',
  ],
  IMPORT_MODEL_UNKNOWN: [
    '设备SN无对应型号，型号请不填',
    'The serial names no known model: leave the model empty',
  ],
  IMPORT_FW_TOO_LONG: ['固件版本不能超过32个字符', 'The firmware version cannot exceed 32 characters'],
  // the device gateway (answers to devices) and commands
  DEVICE_MESSAGE_INVALID: [
    '消息{id}的字段{field}无效：{reason}',
    'Message {id}: field {field} is invalid: {reason}',
  ],
  DEVICE_BODY_INVALID: ['请求体须为UTF-8编码的JSON', 'The body must be JSON in UTF-8'],
  DEVICE_BODY_TOO_LARGE: ['请求体不能超过{max}字节', 'The body cannot exceed {max} bytes'],
  DEVICE_BATCH_INVALID: [
    '请求须为一条消息或至多{max}条消息的数组',
    'The body must be one message or an array of at most {max} messages',
  ],
  DEVICE_FILE_EMPTY: ['文件内容为空', 'The file is empty'],
  DEVICE_FILE_TOO_LARGE: ['文件不能超过20M', 'The file cannot exceed 20 MB'],
  COMMAND_INVALID: ['请选择指令', 'Please choose a command'],
  COMMAND_SENT: ['指令已创建，设备连接后执行', 'Command created: the device runs it when it is reached'],
  // message centre and live alarms
  MSG_CONFIRMED: ['已确认', 'Confirmed'],
  MSG_TITLE_CALL: ['呼救事件：{location}', 'Emergency call: {location}'],
  MSG_TITLE_RESCUE: ['急救事件：设备 {device_sn} 开始使用', 'First aid: device {device_sn} is in use'],
  MSG_TITLE_OFFSET: [
    '位置偏移：设备 {device_sn} 偏离安装位置 {distance}',
    'Location offset: device {device_sn} is {distance} from its site',
  ],
  MSG_TITLE_CABINET_DOOR: ['救护箱开门：{cabinet_sn}', 'Cabinet door open: {cabinet_sn}'],
  MSG_TITLE_UNAPPLIED: [
    '设备消息无法处理：设备 {sn} 的消息 {msg_id}（{type}）',
    'Device message not processed: {type} message {msg_id} of device {sn}',
  ],
  MSG_TITLE_WEBHOOK_DISABLED: [
    '事件推送已停用：{push_url}（{reason}），恢复后请在服务配置中重新启用',
    'Webhooks disabled: {push_url} ({reason}); enable it again in the service configuration once fixed',
  ],
  WEBHOOK_DISABLED_GONE: ['接收方答复 410，地址已不存在', 'the receiver answered 410: gone'],
  WEBHOOK_DISABLED_FAILING: ['投递连续失败超过 24 小时', 'deliveries failing for over 24 hours'],
  // dashboard map (issue 11)
  // event pages (helper: event pages)
  HANDLE_OK: ['处理成功！', 'Handled!'],
  HANDLE_NOTE_REQUIRED: ['请输入处理说明', 'Please enter a handling note'],
  HANDLE_NOTE_TOO_LONG: ['处理说明不超过500个字符', 'The handling note is at most 500 characters'],
  EVENT_NOT_HANDLED_KIND: [
    '预警和离线事件无需处理，条件解除后自动转入历史',
    'Early warnings and offline events need no handling: they move to history when the condition clears',
  ],
  EVENT_AGENCY_INVALID: ['请选择正确的机构', 'Please choose an organisation of your own subtree'],
  // SMS and escalation (helper: sms)
  // cabinets (helper: registry)
  CABINET_BIND_OK: ['绑定成功！', 'Bound!'],
  CABINET_UNBIND_OK: ['解绑成功！', 'Unbound!'],
  CABINET_BIND_SN_REQUIRED: ['请输入绑定AED', 'Please enter the AED to bind'],
  CABINET_BIND_SN_EMPTY: ['绑定设备不能为空！', 'The device to bind cannot be empty!'],
  CABINET_BIND_SN_INVALID: ['请输入正确的AED设备SN', 'Please enter a correct AED serial'],
  CABINET_BIND_DEVICE_BOUND: [
    '该AED已绑定救护箱{cabinet_sn}，请先解绑',
    'This AED is in cabinet {cabinet_sn}: unbind it there first',
  ],
  CABINET_ALREADY_BOUND: [
    '该救护箱已绑定AED，请先解绑',
    'This cabinet holds an AED already: unbind it first',
  ],
  CABINET_NOT_BOUND: ['该救护箱未绑定AED', 'This cabinet holds no AED'],
  CABINET_SN_REQUIRED: ['请输入救护箱编号', 'Please enter the cabinet number'],
  CABINET_SN_FORMAT: [
    '救护箱编号格式不正确（6-32位字母或数字）',
    'Invalid cabinet number (6-32 letters or digits)',
  ],
  CABINET_SN_TAKEN: ['救护箱编号已存在', 'A cabinet with this number exists already'],
  CABINET_SN_USED_BY_AED: ['序列号{sn}已被AED使用', 'Serial {sn} is in use by an AED'],
  CABINET_DELETE_EMPTY: ['请选择需要删除的救护箱！', 'Please choose the cabinets to delete!'],
  CABINET_DELETE_BOUND: [
    '存在救护箱已绑定AED，解绑后删除！',
    'Some cabinets hold an AED: unbind them before deleting!',
  ],
  CABINET_IMPORT_EMPTY: ['导入文件中没有救护箱', 'The import file holds no cabinets'],
  CABINET_IMPORT_TOO_MANY: ['一次最多导入{max}个救护箱', 'At most {max} cabinets can be imported at once'],
  CABINET_IMPORT_SN_DUPLICATE: ['救护箱编号与第{row}行重复', 'The cabinet number repeats row {row}'],
  CABINET_IMPORT_AED_NOT_FOUND: [
    '绑定AED不存在或不在所选机构范围内',
    'The AED to bind does not exist or is not in your organisations',
  ],
  CABINET_IMPORT_AED_BOUND: ['绑定AED已绑定其他救护箱', 'The AED to bind is in another cabinet already'],
  CABINET_IMPORT_AED_DUPLICATE: ['绑定AED与第{row}行重复', 'The AED to bind repeats row {row}'],
  // cabinets (helper: engine)
  ...openApiMessages,
  ...responderMessages,
  ...callMessages,
  ...dispatchMessages,
  ...coverageMessages,
  ...reviewMessages,
} as const satisfies Record<string, readonly [string, string]>

export type MessageKey = keyof typeof messages
export type Lang = 'zh-CN' | 'en-US'

/** True when `key` names an entry of the message table. */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(messages, key)
}

/** Renders a message in the given language, filling `{name}` placeholders. */
export function translate(
  key: MessageKey,
  lang: Lang = 'zh-CN',
  params: Record<string, string | number> = {},
) {
  const text = messages[key][lang === 'en-US' ? 1 : 0]
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`))
}
