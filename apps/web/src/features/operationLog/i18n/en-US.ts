import type { operationLogZhCN } from './zh-CN'

/** The operation log: en-US texts, with the keys of the zh-CN set. */
export const operationLogEnUS: typeof operationLogZhCN = {
  operationLog: {
    title: 'System operation log',
    operator: 'Operator',
    operatorPlaceholder: 'Please enter the operator',
    type: 'Operation',
    content: 'Content',
    contentPlaceholder: 'Please enter the content',
    agency: 'Organisation',
    time: 'Time',
    lastDays: 'Last {{count}} days',
    export: 'Export',
    exportingShort: 'Exporting',
    exporting: 'Exporting, please wait…',
    exported: 'Exported {{count}} rows',
  },
}
