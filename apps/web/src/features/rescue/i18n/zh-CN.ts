/** The emergency page's rescue tab (急救事件): zh-CN texts, the spec's words. */
export const rescueZhCN = {
  rescue: {
    list: '急救事件列表',
    eventLocation: '急救地点',
    eventTime: '急救时间',
    deviceSn: '设备SN',
    snPlaceholder: '请输入设备SN',
    model: '设备型号',
    location: '安装地址',
    name: '安装点名称',
    agency: '所属机构',
    lat: '纬度',
    lon: '经度',
    call: '关联呼救',
    returnState: '归还',
    returnStates: { out: '未归还', returned: '已归还', not_returned: '超时未归还' },
    region: '所在区域',
    minutes: '{{count}}分钟',
    days: '{{count}}天',
    ecg: '心电图下载',
    device: '设备详情',
  },
}
