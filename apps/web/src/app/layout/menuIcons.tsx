import {
  AlertOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  BellOutlined,
  BookOutlined,
  ClusterOutlined,
  DashboardOutlined,
  DesktopOutlined,
  EnvironmentOutlined,
  FileTextOutlined,
  HeartOutlined,
  MedicineBoxOutlined,
  PhoneOutlined,
  ProfileOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  UserOutlined,
} from '@ant-design/icons'
import type { ComponentType } from 'react'

const icons: Record<string, ComponentType> = {
  AlertOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  BellOutlined,
  BookOutlined,
  ClusterOutlined,
  DashboardOutlined,
  DesktopOutlined,
  EnvironmentOutlined,
  FileTextOutlined,
  HeartOutlined,
  MedicineBoxOutlined,
  PhoneOutlined,
  ProfileOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  UserOutlined,
}

/** The @ant-design/icons component a server menu entry names, if the console knows it. */
export function menuIcon(name: string | undefined) {
  const Icon = name ? icons[name] : undefined
  return Icon ? <Icon /> : undefined
}
