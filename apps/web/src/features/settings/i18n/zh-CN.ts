/** The system settings: zh-CN texts, the spec's words. */
export const settingsZhCN = {
  systemSettings: {
    title: '系统设置',
    agency: '机构：',
    sms: '短信通知',
    device: '设备提醒',
    alarm: '告警',
    aidSms: '急救短信通知',
    aidSmsHint: '发生急救事件时，向相关人员发送短信',
    execSms: '异常状态短信通知',
    execSmsHint: '设备出现故障、预警、离线或位置偏移时，在下方时段内发送短信',
    window: '异常短信发送时段',
    windowRequired: '请选择发送时段',
    offset: '位置偏移阈值',
    offsetHint: '设备与安装位置的距离超过阈值时，判定为位置偏移',
    padExpire: '电极片到期提醒',
    batteryExpire: '电池到期提醒',
    alarmSound: '告警提示音',
    alarmSoundHint: '收到实时告警时播放提示音',
    escalate: '告警升级时间（分钟）',
    escalateHint:
      '急救或救护箱开门告警在此时间内无人确认时，重新推送并短信通知机构管理员，再逐级通知上级机构',
    escalateRange: '请输入1-60之间的整数',
  },
}
