/** The calls' and rescues' messages (zh-CN, en-US), spread into the message table. */
export const callMessages = {
  CALL_PHONE_REQUIRED: ['请输入呼救电话', 'Please enter the caller’s phone'],
  CALL_PHONE_INVALID: [
    '请输入正确的呼救电话（手机或带区号的固话）',
    'Enter a valid phone (a mobile, or a landline with its area code)',
  ],
  CALL_PLACE_REQUIRED: ['请在地图上选择呼救位置', 'Please pick the place on the map'],
  CALL_OUTSIDE_CHINA: ['呼救位置不在中国境内', 'The place is outside China'],
  CALL_LOCATION_REQUIRED: ['请输入呼救地址', 'Please enter the address'],
  CALL_TIME_INVALID: ['呼救时间格式不正确', 'Invalid call time'],
  CALL_TIME_FUTURE: ['呼救时间不能晚于当前时间', 'The call time cannot be in the future'],
  CALL_OUTCOME_REQUIRED: ['请选择处置结果', 'Please choose the outcome'],
  CALL_CLOSED: ['该呼救事件已结束', 'This call is already closed'],
  CALL_EXTERNAL_ID_INVALID: [
    'external_id须为1-64位字母、数字或_.:-',
    'external_id must be 1-64 letters, digits or _.:-',
  ],
  CALL_ADD_OK: ['登记成功！', 'Recorded!'],
  CALL_CLOSE_OK: ['操作成功！', 'Done!'],
  RESCUE_FILE_MISSING: ['文件未上传！', 'The file has not been uploaded!'],
} as const satisfies Record<string, readonly [string, string]>
