import { type ComponentType, createElement, lazy } from 'react'

type Load = () => Promise<ComponentType>

/** A device's detail, drawn by the device feature, loaded when a page first opens one. */
const DeviceDetailDrawer = lazy(() => import('../features/device/components/DeviceDetailDrawer'))

/** The dashboard opens a device's detail from the map: the app hands it the device feature's drawer. */
const dashboard: Load = () =>
  import('../features/dashboard/pages/DashboardPage').then(
    ({ DashboardPage }) =>
      function Dashboard() {
        return createElement(DashboardPage, { DeviceDetail: DeviceDetailDrawer })
      },
  )

/** The emergency page opens a device's detail, also scoped to a rescue: the same drawer. */
const emergencyCall: Load = () =>
  import('../features/call/pages/EmergencyCallPage').then(
    ({ EmergencyCallPage }) =>
      function EmergencyCall() {
        return createElement(EmergencyCallPage, { DeviceDetail: DeviceDetailDrawer })
      },
  )

/**
 * The page of each console route, by its name in the shared route tree (contracts' menu.ts),
 * each loaded as its own chunk when first opened. A group without a page opens its first child.
 */
export const pages: Record<string, Load> = {
  watchBoard: dashboard,
  'watchBoard-dashboard': dashboard,
  'deviceManagement-device': () => import('../features/device/pages/DevicesPage').then((m) => m.DevicesPage),
  'deviceManagement-factory': () =>
    import('../features/device/pages/FactoryDevicesPage').then((m) => m.FactoryDevicesPage),
  'deviceManagement-cabinet': () =>
    import('../features/cabinet/pages/CabinetsPage').then((m) => m.CabinetsPage),
  'eventManagement-earlyWarn': () =>
    import('../features/event/pages/EarlyWarnEventsPage').then((m) => m.EarlyWarnEventsPage),
  'eventManagement-fault': () =>
    import('../features/event/pages/FaultEventsPage').then((m) => m.FaultEventsPage),
  'eventManagement-locationOffset': () =>
    import('../features/event/pages/LocationOffsetEventsPage').then((m) => m.LocationOffsetEventsPage),
  'eventManagement-offline': () =>
    import('../features/event/pages/OfflineEventsPage').then((m) => m.OfflineEventsPage),
  'organizationalManagement-organizational': () =>
    import('../features/agency/pages/OrganisationsPage').then((m) => m.OrganisationsPage),
  'agencyManagement-agencyList1': () =>
    import('../features/agency/pages/OrganisationsPage').then((m) => m.OrganisationsPage),
  'users-permission': () => import('../features/member/pages/UsersPage').then((m) => m.UsersPage),
  'emergency-call': emergencyCall,
  'emergency-coverage': () => import('../features/coverage/pages/CoveragePage').then((m) => m.CoveragePage),
  'aidManManagement-aidMan': () =>
    import('../features/responder/pages/RespondersPage').then((m) => m.RespondersPage),
  'backendManagement-volunteer': () =>
    import('../features/review/pages/VolunteersPage').then((m) => m.VolunteersPage),
  'backendManagement-thirdPartyAed': () =>
    import('../features/review/pages/ThirdPartyAedsPage').then((m) => m.ThirdPartyAedsPage),
  'backendManagement-sysConfig': () =>
    import('../features/review/pages/SysConfigPage').then((m) => m.SysConfigPage),
  'systemManagement-classroom': () =>
    import('../features/classroom/pages/ClassroomPage').then((m) => m.ClassroomPage),
  'systemManagement-serviceConfig': () =>
    import('../features/serviceConfig/pages/ServiceConfigPage').then((m) => m.ServiceConfigPage),
  'systemManagement-settings': () =>
    import('../features/settings/pages/SettingsPage').then((m) => m.SettingsPage),
  'systemManagement-operationLog': () =>
    import('../features/operationLog/pages/OperationLogPage').then((m) => m.OperationLogPage),
}
