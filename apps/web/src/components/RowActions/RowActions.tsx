import { Button, Space } from 'antd'

/** One link of a row's actions; `show: false` leaves it out. */
export type RowAction = {
  label: string
  onClick: () => void
  testId: string
  danger?: boolean
  show?: boolean
}

/** The link buttons of a table row; clicking them does not select the row. */
export function RowActions({ actions }: { actions: RowAction[] }) {
  return (
    <Space size={0} onClick={(e) => e.stopPropagation()}>
      {actions.map(
        (a) =>
          a.show !== false && (
            <Button
              key={a.testId}
              type="link"
              size="small"
              danger={a.danger}
              onClick={a.onClick}
              data-testid={a.testId}
            >
              {a.label}
            </Button>
          ),
      )}
    </Space>
  )
}
