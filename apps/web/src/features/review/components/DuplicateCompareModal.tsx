import type { Duplicate } from '@aed/contracts/review'
import { Button, Card, Col, Descriptions, Empty, Modal, Row, Space, Tag } from 'antd'
import { useTranslation } from 'react-i18next'
import { DuplicateMap } from './DuplicateMap'
import { ReviewImages } from './ReviewImages'
import type { Submission } from './submission'

type Props = {
  submission: Submission | null
  /** Whether the reviewer may decide here: in review, with the row's can.audit. */
  decide: boolean
  passing: boolean
  onPass: () => void
  onReject: () => void
  onClose: () => void
}

const KIND_COLORS: Record<Duplicate['kind'], string> = {
  device: 'green',
  third_party: 'default',
  responder: 'cyan',
}

/**
 * 疑似重复对比: the submission on the left (photos, place, brand and serial), each possible duplicate
 * on the right (what it is, serial, name, distance, similarity, why, photos), both on a small map;
 * the reviewer passes or rejects from here.
 */
export default function DuplicateCompareModal({
  submission,
  decide,
  passing,
  onPass,
  onReject,
  onClose,
}: Props) {
  const { t } = useTranslation()
  const dash = t('table.empty')
  const s = submission
  return (
    <Modal
      open={s !== null}
      title={t('review.duplicate.title')}
      width={1000}
      onCancel={onClose}
      destroyOnHidden
      // antd's Modal drops unknown props: the test id goes on its wrapper.
      wrapProps={{ 'data-testid': 'review-compare-modal' }}
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          {decide && (
            <Button danger onClick={onReject} data-testid="review-compare-reject">
              {t('review.reject')}
            </Button>
          )}
          {decide && (
            <Button type="primary" loading={passing} onClick={onPass} data-testid="review-compare-pass">
              {t('review.pass')}
            </Button>
          )}
        </Space>
      }
    >
      {s && (
        <>
          <Row gutter={16}>
            <Col span={10}>
              <Card
                size="small"
                title={t('review.duplicate.submission')}
                data-testid="review-compare-submission"
              >
                <Descriptions size="small" column={1}>
                  {s.brand && <Descriptions.Item label={t('review.brand')}>{s.brand}</Descriptions.Item>}
                  <Descriptions.Item label={t('review.duplicate.sn')}>{s.sn ?? dash}</Descriptions.Item>
                  <Descriptions.Item
                    label={s.kind === 'volunteer' ? t('review.guardArea') : t('review.location')}
                  >
                    {s.place}
                  </Descriptions.Item>
                  {s.placeDesc && (
                    <Descriptions.Item label={t('review.locationDesc')}>{s.placeDesc}</Descriptions.Item>
                  )}
                  <Descriptions.Item label={t('review.duplicate.photos')}>
                    <ReviewImages urls={s.photos} size={72} />
                  </Descriptions.Item>
                </Descriptions>
              </Card>
            </Col>
            <Col span={14}>
              <Card size="small" title={t('review.duplicate.matches')} className="review-compare-matches">
                {s.duplicates.length === 0 ? (
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
                ) : (
                  s.duplicates.map((d) => <Match key={`${d.kind}-${d.id}`} duplicate={d} />)
                )}
              </Card>
            </Col>
          </Row>
          <div className="review-compare-map">
            <DuplicateMap point={s} title={t('review.duplicate.submission')} duplicates={s.duplicates} />
          </div>
        </>
      )}
    </Modal>
  )
}

/** One possible duplicate. */
function Match({ duplicate: d }: { duplicate: Duplicate }) {
  const { t } = useTranslation()
  const dash = t('table.empty')
  return (
    <div className="review-compare-match" data-testid={`review-match-${d.kind}-${d.id}`}>
      <Descriptions
        size="small"
        column={2}
        title={<Tag color={KIND_COLORS[d.kind]}>{t(`review.duplicate.kind.${d.kind}`)}</Tag>}
      >
        <Descriptions.Item label={t('review.duplicate.sn')}>{d.sn ?? dash}</Descriptions.Item>
        <Descriptions.Item label={t('review.duplicate.why')}>
          {t(`review.duplicate.reason.${d.reason}`)}
        </Descriptions.Item>
        <Descriptions.Item label={d.kind === 'responder' ? t('review.name') : t('review.location')} span={2}>
          {d.label}
          {d.location_desc ? ` ${d.location_desc}` : ''}
        </Descriptions.Item>
        <Descriptions.Item label={t('review.duplicate.distance')}>
          {d.distance === null ? dash : t('review.duplicate.meters', { count: d.distance })}
        </Descriptions.Item>
        <Descriptions.Item label={t('review.duplicate.similarity')}>
          {d.similarity === null ? dash : `${Math.round(d.similarity * 100)}%`}
        </Descriptions.Item>
        <Descriptions.Item label={t('review.duplicate.photos')} span={2}>
          {d.photos.length ? <ReviewImages urls={d.photos} size={56} /> : t('review.duplicate.noPhotos')}
        </Descriptions.Item>
      </Descriptions>
    </div>
  )
}
