import type { serviceConfigZhCN } from './zh-CN'

/** The service configuration: en-US texts, with the keys of the zh-CN set. */
export const serviceConfigEnUS: typeof serviceConfigZhCN = {
  serviceConfig: {
    list: 'Organisation service configurations',
    add: 'New configuration',
    plain: 'Service configuration',
    detail: 'Details',
    modify: 'Modify',
    modifyAction: 'Modify',
    agency: 'Organisation',
    service: 'Services',
    state: 'Enabled',
    stateColumn: 'Status',
    states: { 1: 'Enabled', 0: 'Disabled' },
    applyTime: 'Applied',
    secret: 'Secret',
    accessToken: 'Access token',
    regenerate: 'Issue a new secret and access token',
    regenerateHint: 'The old secret and access token stop working once saved',
    agencyRequired: 'Please enter the organisation name',
    serviceRequired: 'Please choose the services',
    stateRequired: 'Please choose whether it is enabled',
    serviceEmpty: 'The services cannot be empty!',
    forbidden: 'No permission for this operation',
    copyFailed: 'Copy failed, please copy by hand',
  },
}
