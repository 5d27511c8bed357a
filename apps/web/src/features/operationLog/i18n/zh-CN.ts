/** The operation log: zh-CN texts, the spec's words. */
export const operationLogZhCN = {
  operationLog: {
    title: '系统操作日志',
    operator: '操作人',
    operatorPlaceholder: '请输入操作人',
    type: '操作类型',
    content: '操作内容',
    contentPlaceholder: '请输入操作内容',
    agency: '所属机构',
    time: '操作时间',
    lastDays: '近{{count}}天',
    export: '导出',
    exportingShort: '导出中',
    exporting: '正在导出，请稍候…',
    exported: '导出成功，共{{count}}条',
  },
}
