import { PlusOutlined } from '@ant-design/icons'
import { Button, Card } from 'antd'
import type { ReactNode } from 'react'

/** The add action of a list; absent for members who may not add. */
export type ListAdd = { label: string; onClick: () => void; testId: string }

/**
 * The card around a page's table: its title and, for members who may add, the add button; a list
 * without one may show another action (an export) in its place.
 */
export function ListCard({
  title,
  add,
  extra,
  children,
}: {
  title: ReactNode
  add?: ListAdd | null | false
  extra?: ReactNode
  children: ReactNode
}) {
  return (
    <Card
      title={title}
      extra={
        add ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={add.onClick} data-testid={add.testId}>
            {add.label}
          </Button>
        ) : (
          extra
        )
      }
    >
      {children}
    </Card>
  )
}
