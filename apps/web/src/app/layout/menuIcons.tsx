import type { ComponentType } from 'react'
import * as menuIconSet from './menuIconSet'

const icons: Partial<Record<string, ComponentType>> = menuIconSet

/** The @ant-design/icons component a server menu entry names, if the console knows it. */
export function menuIcon(name: string | undefined) {
  const Icon = name ? icons[name] : undefined
  return Icon ? <Icon /> : undefined
}
