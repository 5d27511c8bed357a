import { ApartmentOutlined, DeleteOutlined } from '@ant-design/icons'
import { Button, Space } from 'antd'
import type { ReactNode } from 'react'

/** An action on a list's chosen rows; absent for members who may not take it. */
export type BulkAction = { label: string; onClick: () => void; testId: string }

type Props = {
  /** Actions before the row actions (an import button). */
  children?: ReactNode
  remove?: BulkAction | null | false
  assign?: BulkAction | null | false
}

/** The toolbar of a list card: what comes first, then delete and assign of the chosen rows. */
export function BulkActions({ children, remove, assign }: Props) {
  return (
    <Space wrap>
      {children}
      {remove && (
        <Button danger icon={<DeleteOutlined />} onClick={remove.onClick} data-testid={remove.testId}>
          {remove.label}
        </Button>
      )}
      {assign && (
        <Button
          type="primary"
          icon={<ApartmentOutlined />}
          onClick={assign.onClick}
          data-testid={assign.testId}
        >
          {assign.label}
        </Button>
      )}
    </Space>
  )
}
