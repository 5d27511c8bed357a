import type { AgencyNode } from '@aed/contracts/agency'
import { expandableKeys } from '@aed/contracts/agency-rules'
import { MinusSquareOutlined, PlusOutlined, PlusSquareOutlined } from '@ant-design/icons'
import { Card, Empty, Spin, Tag, Tree, type TreeDataNode } from 'antd'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { IconButton } from '../../../components/IconButton/IconButton'

type Props = {
  tree: AgencyNode[] | undefined
  loading: boolean
  /** index_link of the chosen organisation, or null for all. */
  selected: string | null
  onSelect: (indexLink: string | null) => void
  /** Absent for members who may not add organisations. */
  onAdd?: () => void
}

function toTreeData(nodes: readonly AgencyNode[], disabledText: string): TreeDataNode[] {
  return nodes.map((n) => ({
    key: n.index_link,
    title: (
      <span className="agency-tree-title" data-testid={`agency-node-${n.id}`}>
        {n.name}
        {n.disabled && (
          <Tag color="red" variant="filled" className="agency-tree-tag">
            {disabledText}
          </Tag>
        )}
      </span>
    ),
    children: toTreeData(n.kids, disabledText),
  }))
}

/** The organisation tree with add, collapse-all and expand-all; choosing a node filters the list. */
export function AgencyTreePanel({ tree, loading, selected, onSelect, onAdd }: Props) {
  const { t } = useTranslation()
  const allKeys = useMemo(() => expandableKeys(tree ?? []), [tree])
  const [expanded, setExpanded] = useState<string[]>([])
  useEffect(() => setExpanded(allKeys), [allKeys])
  const data = useMemo(() => toTreeData(tree ?? [], t('agency.statusDisabled')), [tree, t])

  const tools = (
    <span className="agency-tree-tools">
      {onAdd && (
        <IconButton
          label={t('agency.add')}
          icon={<PlusOutlined />}
          onClick={onAdd}
          testId="agency-tree-add"
        />
      )}
      <IconButton
        label={t('agency.collapseAll')}
        icon={<MinusSquareOutlined />}
        onClick={() => setExpanded([])}
        testId="agency-tree-collapse"
      />
      <IconButton
        label={t('agency.expandAll')}
        icon={<PlusSquareOutlined />}
        onClick={() => setExpanded(allKeys)}
        testId="agency-tree-expand"
      />
    </span>
  )

  return (
    <Card title={t('agency.tree')} extra={tools} className="agency-tree-card" size="small">
      {loading ? (
        <Spin className="agency-tree-spin" />
      ) : data.length ? (
        <Tree
          blockNode
          showLine
          treeData={data}
          expandedKeys={expanded}
          onExpand={(keys) => setExpanded(keys.map(String))}
          selectedKeys={selected ? [selected] : []}
          onSelect={(keys) => onSelect(keys.length ? String(keys[0]) : null)}
          data-testid="agency-tree"
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      )}
    </Card>
  )
}
