/** The dashboard: zh-CN texts, the spec's words. */
export const dashboardZhCN = {
  dashboard: {
    title: '数据看板',
    comingSoon: '数据看板将随看板需求上线',
    description: '地图、设备状态分布与区域统计将在此展示。',
    stats: {
      status: '设备状态分布',
      total: '设备总数',
      rescues: '救援次数',
      regions: '设备区域分布',
      bands: '设备状态统计',
      battery: '电量',
      electrode_sheet_expire: '电极片有效期',
      battery_expire: '电池有效期',
      host_expire: '主机有效期',
      rest: '其他',
      empty: '暂无设备',
      loadFailed: '统计加载失败',
      retry: '重试',
    },
  },
}
