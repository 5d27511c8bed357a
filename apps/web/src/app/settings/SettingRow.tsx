import { Tooltip } from 'antd'
import type { ReactNode } from 'react'

/** One labelled control of the settings drawer, with an optional hint on hover. */
export function SettingRow({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
  return (
    <Tooltip title={hint} placement="left">
      <div className="setting-row">
        <span>{label}</span>
        {children}
      </div>
    </Tooltip>
  )
}
