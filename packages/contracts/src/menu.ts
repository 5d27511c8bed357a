import { z } from 'zod'
import { get } from './endpoint.ts'
import type { PermissionName } from './permissions.ts'

/** One entry of the server-built sidebar menu. */
export type MenuItem = {
  /** Route name, also the i18n key `menu.<name>` in the console. */
  name: string
  path: string
  /** Title in the requester's language. */
  title: string
  icon?: string
  children?: MenuItem[]
}

export const menuItemSchema: z.ZodType<MenuItem> = z.lazy(() =>
  z.object({
    name: z.string(),
    path: z.string(),
    title: z.string(),
    icon: z.string().optional(),
    children: z.array(menuItemSchema).optional(),
  }),
)

/** A console route: its permission list decides both the menu and the route guard. */
export type RouteDef = {
  name: string
  path: string
  title: [zh: string, en: string]
  icon?: string
  /** Allowed when the member holds at least one; empty or absent means open to every member. */
  permissions?: PermissionName[]
  /** Shown in the menu. */
  menu?: boolean
  /** The spec's single-menu flag: the page opens alone, with no navigation menu around it. */
  singleMenu?: boolean
  children?: RouteDef[]
}

/**
 * The console's navigable routes. Later features add their entries here; the server builds
 * the menu from it and the console's guard checks the same permission lists.
 */
export const routeTree: RouteDef[] = [
  {
    name: 'watchBoard',
    path: '/watchBoard',
    title: ['监控看板', 'Watch board'],
    icon: 'DashboardOutlined',
    menu: true,
    children: [
      {
        name: 'watchBoard-dashboard',
        path: '/watchBoard/dashboard',
        title: ['数据看板', 'Dashboard'],
        menu: true,
      },
    ],
  },
  {
    name: 'deviceManagement',
    path: '/deviceManagement',
    title: ['设备管理', 'Device management'],
    icon: 'MedicineBoxOutlined',
    menu: true,
    permissions: ['device'],
    children: [
      {
        name: 'deviceManagement-device',
        path: '/deviceManagement/device',
        title: ['设备列表', 'Device list'],
        menu: true,
        permissions: ['device'],
      },
      {
        // Assign, import and delete on this page follow role, agency type and level (spec 6).
        name: 'deviceManagement-factory',
        path: '/deviceManagement/factory',
        title: ['出厂设备列表', 'Factory device list'],
        menu: true,
        permissions: ['device'],
      },
      {
        // Delete, assign and import follow role, agency type and level (spec 6).
        name: 'deviceManagement-cabinet',
        path: '/deviceManagement/cabinet',
        title: ['救护箱管理', 'Rescue cabinets'],
        menu: true,
        permissions: ['device'],
      },
    ],
  },
  {
    name: 'eventManagement',
    path: '/eventManagement',
    title: ['事件管理', 'Event management'],
    icon: 'AlertOutlined',
    menu: true,
    permissions: ['device'],
    children: [
      {
        name: 'eventManagement-earlyWarn',
        path: '/eventManagement/earlyWarn',
        title: ['预警事件', 'Early warnings'],
        menu: true,
        permissions: ['device'],
      },
      {
        name: 'eventManagement-fault',
        path: '/eventManagement/fault',
        title: ['故障事件', 'Faults'],
        menu: true,
        permissions: ['device'],
      },
      {
        name: 'eventManagement-locationOffset',
        path: '/eventManagement/locationOffset',
        title: ['位置偏移事件', 'Location offsets'],
        menu: true,
        permissions: ['device'],
      },
      {
        name: 'eventManagement-offline',
        path: '/eventManagement/offline',
        title: ['离线事件', 'Offline'],
        menu: true,
        permissions: ['device'],
      },
    ],
  },
  {
    name: 'emergency',
    path: '/emergency',
    title: ['急救事件', 'Emergencies'],
    icon: 'PhoneOutlined',
    menu: true,
    permissions: ['aid_event'],
    children: [
      {
        // Calls and rescues on one page (spec 2.5); 登记呼救 needs device EDIT (decisions).
        name: 'emergency-call',
        path: '/emergency/call',
        title: ['急救事件', 'Emergencies'],
        menu: true,
        permissions: ['aid_event'],
      },
      {
        // Calls covered by a ready AED within 500 m and answered by responders (issue 26).
        name: 'emergency-coverage',
        path: '/emergency/coverage',
        title: ['覆盖分析', 'Coverage'],
        menu: true,
        permissions: ['aid_event'],
      },
    ],
  },
  {
    name: 'aidManManagement',
    path: '/aidManManagement',
    title: ['急救人员管理', 'Responders'],
    icon: 'SafetyCertificateOutlined',
    menu: true,
    permissions: ['aid_man'],
    children: [
      {
        // READ_ONLY hides 登记, import, edit and save; ALL adds Delete (spec 6).
        name: 'aidManManagement-aidMan',
        path: '/aidManManagement/aidMan',
        title: ['急救人员列表', 'Responder list'],
        menu: true,
        permissions: ['aid_man'],
      },
    ],
  },
  {
    // 公众审核: the system organisation reviews what the public submits (spec 2.6-2.8); the
    // `agency` area's level decides reading (READ_ONLY), deciding and saving (EDIT), deleting (ALL).
    name: 'backendManagement',
    path: '/backendManagement',
    title: ['公众审核', 'Public review'],
    icon: 'AuditOutlined',
    menu: true,
    permissions: ['system_review'],
    children: [
      {
        name: 'backendManagement-volunteer',
        path: '/backendManagement/volunteer',
        title: ['公共志愿者', 'Public volunteers'],
        menu: true,
        permissions: ['system_review'],
      },
      {
        name: 'backendManagement-thirdPartyAed',
        path: '/backendManagement/thirdPartyAed',
        title: ['第三方AED', 'Third-party AEDs'],
        menu: true,
        permissions: ['system_review'],
      },
      {
        name: 'backendManagement-sysConfig',
        path: '/backendManagement/sysConfig',
        title: ['后台配置', 'Backend configuration'],
        menu: true,
        permissions: ['system_review'],
      },
    ],
  },
  {
    name: 'organizationalManagement',
    path: '/organizationalManagement',
    title: ['机构管理', 'Organisations'],
    icon: 'ApartmentOutlined',
    menu: true,
    permissions: ['agency'],
    children: [
      {
        name: 'organizationalManagement-organizational',
        path: '/organizationalManagement/organizational',
        title: ['机构列表', 'Organisation list'],
        menu: true,
        permissions: ['agency'],
      },
    ],
  },
  {
    // The spec's single-menu route (2, route guard): the organisation list alone, without the
    // console's navigation, for a link that should show nothing else. Not in the menu.
    name: 'agencyManagement-agencyList1',
    path: '/agencyManagement/agencyList1',
    title: ['机构列表', 'Organisation list'],
    permissions: ['agency'],
    singleMenu: true,
  },
  {
    name: 'users',
    path: '/users',
    title: ['用户管理', 'Users'],
    icon: 'TeamOutlined',
    menu: true,
    permissions: ['member'],
    children: [
      {
        name: 'users-permission',
        path: '/users/permission',
        title: ['用户列表', 'User list'],
        menu: true,
        permissions: ['member'],
      },
    ],
  },
  {
    name: 'systemManagement',
    path: '/systemManagement',
    title: ['系统管理', 'System management'],
    icon: 'SettingOutlined',
    menu: true,
    permissions: ['agency'],
    children: [
      {
        name: 'systemManagement-classroom',
        path: '/systemManagement/classroom',
        title: ['急救课堂', 'First-aid classroom'],
        menu: true,
        permissions: ['agency'],
      },
      {
        name: 'systemManagement-serviceConfig',
        path: '/systemManagement/serviceConfig',
        title: ['机构服务配置', 'Service configuration'],
        menu: true,
        permissions: ['system_super'],
      },
      {
        name: 'systemManagement-settings',
        path: '/systemManagement/settings',
        title: ['系统设置', 'System settings'],
        menu: true,
        permissions: ['agency'],
      },
      {
        name: 'systemManagement-operationLog',
        path: '/systemManagement/operationLog',
        title: ['系统操作日志', 'Operation log'],
        menu: true,
        permissions: ['agency'],
      },
    ],
  },
]

/** Flattens the route tree, children after their parent. */
export function flattenRoutes(routes: RouteDef[] = routeTree): RouteDef[] {
  return routes.flatMap((r) => [r, ...flattenRoutes(r.children ?? [])])
}

/** Whether a member holding `held` may open a route that declares `needed`. */
export function routeAllowed(needed: readonly string[] | undefined, held: readonly string[]): boolean {
  return !needed || needed.length === 0 || needed.some((p) => held.includes(p))
}

/** The server-built sidebar menu. */
export const menuApi = {
  menu: get('/api/v1/system/menu', {
    summary: 'Sidebar menu built from the member’s permissions',
    response: z.array(menuItemSchema),
  }),
}
