/** The dashboard: zh-CN texts, the spec's words. */
export const dashboardZhCN = {
  dashboard: {
    title: '数据看板',
    comingSoon: '数据看板将随看板需求上线',
    description: '地图、设备状态分布与区域统计将在此展示。',
  },
}
