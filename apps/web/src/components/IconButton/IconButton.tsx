import { Button, Tooltip } from 'antd'
import type { ReactNode } from 'react'

type Props = { label: string; icon: ReactNode; onClick: () => void; testId: string }

/** A small icon-only button of a toolbar, named by its tooltip and aria-label. */
export function IconButton({ label, icon, onClick, testId }: Props) {
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        size="small"
        icon={icon}
        onClick={onClick}
        aria-label={label}
        data-testid={testId}
      />
    </Tooltip>
  )
}
