/** The message centre and the alarm popup: zh-CN texts. */
export const messageZhCN = {
  message: {
    centre: '消息中心',
    unconfirmed: '{{count}} 条未确认',
    empty: '暂无消息',
    loading: '加载中…',
    noMore: '没有更多了',
    confirm: '确认',
    details: '详情',
    confirmed: '已确认',
    confirmedBy: '{{name}} 于 {{time}} 确认',
    stale: '已超10分钟',
    device: '设备',
    cabinet: '救护箱',
    type: { '1': '呼救', '2': '急救', '3': '位置偏移', '4': '救护箱开门', '5': '消息无法处理' },
    alarm: {
      title: '实时告警',
      aid: '急救告警',
      door: '救护箱开门告警',
      escalated: '第 {{level}} 次升级提醒',
      close: '关闭',
      location: '位置',
      agency: '机构',
      time: '时间',
    },
    autoplay: {
      title: '提示',
      text: '当前正在自动播放音频',
      play: '确定',
    },
  },
}
