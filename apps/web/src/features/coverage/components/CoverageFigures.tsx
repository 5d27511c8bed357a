import { COVERAGE_RADIUS_M, type Coverage } from '@aed/contracts/coverage'
import { Card, Col, Row, Statistic } from 'antd'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { minutesSeconds, percent } from '../format'

function Figure({
  title,
  value,
  note,
  testId,
}: {
  title: string
  value: string
  note: ReactNode
  testId: string
}) {
  return (
    <Col xs={12} md={8} xl={4}>
      <Card size="small" className="coverage-figure" data-testid={testId}>
        <Statistic title={title} value={value} />
        <div className="coverage-figure-note">{note}</div>
      </Card>
    </Col>
  )
}

/** The period's figures as cards: calls, the shares covered, accepted and arrived, and the medians. */
export function CoverageFigures({ data }: { data: Coverage }) {
  const { t } = useTranslation()
  const { totals, shares, median_seconds: medians } = data
  const known = totals.calls - totals.unknown
  const radius = COVERAGE_RADIUS_M
  return (
    <Row gutter={[12, 12]} className="coverage-figures">
      <Figure
        testId="coverage-calls"
        title={t('coverage.calls')}
        value={String(totals.calls)}
        note={totals.unknown > 0 ? t('coverage.callsUnknown', { count: totals.unknown }) : ' '}
      />
      <Figure
        testId="coverage-covered"
        title={t('coverage.covered')}
        value={percent(shares.covered)}
        note={`${t('coverage.coveredOf', { covered: totals.covered, known })} · ${t('coverage.coveredHint', { radius })}`}
      />
      <Figure
        testId="coverage-accept"
        title={t('coverage.withAccept')}
        value={percent(shares.with_accept)}
        note={t('coverage.ofKnown', { count: totals.with_accept, known })}
      />
      <Figure
        testId="coverage-arrival"
        title={t('coverage.withArrival')}
        value={percent(shares.with_arrival)}
        note={t('coverage.ofKnown', { count: totals.with_arrival, known })}
      />
      <Figure
        testId="coverage-median-accept"
        title={t('coverage.medianAccept')}
        value={minutesSeconds(medians.first_accept)}
        note={t('coverage.medianHint')}
      />
      <Figure
        testId="coverage-median-arrival"
        title={t('coverage.medianArrival')}
        value={minutesSeconds(medians.first_arrival)}
        note={t('coverage.medianHint')}
      />
    </Row>
  )
}
