import { AimOutlined } from '@ant-design/icons'
import { Button, Col, Form, InputNumber, Space, Tooltip } from 'antd'
import { useTranslation } from 'react-i18next'
import { PlaceSearch } from '../../../components/PlaceSearch/PlaceSearch'
import { useReverseAddress } from '../../../components/PlaceSearch/useReverseAddress'
import { RegionPicker } from '../../../components/RegionPicker/RegionPicker'
import type { MemberFormValues } from './memberFormValues'

/**
 * Address of the user: a place search fills region and coordinates when the map knows them;
 * otherwise the region is picked by hand and the coordinates typed (or resolved by a map vendor).
 */
export function MemberAddressFields({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation()
  const form = Form.useFormInstance<MemberFormValues>()
  const reverse = useReverseAddress()
  const lat = Form.useWatch('lat', form)
  const lon = Form.useWatch('lon', form)

  const resolve = async () => {
    if (typeof lat !== 'number' || typeof lon !== 'number') return
    try {
      const place = await reverse.mutateAsync({ lat, lon })
      form.setFieldsValue({ location: place.address, region: place.address_code ?? undefined })
    } catch {
      // Shown by the request client (code 6: pick the region by hand).
    }
  }

  return (
    <>
      <Col span={16}>
        <Form.Item
          name="location"
          label={t('member.location')}
          rules={[{ required: true, whitespace: true, message: t('member.locationRequired') }]}
        >
          <PlaceSearch
            disabled={disabled}
            placeholder={t('member.locationRequired')}
            testId="member-location"
            onPick={(p) =>
              form.setFieldsValue({
                region: p.address_code ?? undefined,
                ...(p.location ? { lat: p.location.lat, lon: p.location.lon } : {}),
              })
            }
          />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item name="region" label={t('member.region')}>
          <RegionPicker disabled={disabled} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col span={16}>
        <Form.Item label={t('member.coordinates')} required tooltip={t('member.coordinatesHint')}>
          <Space.Compact block>
            <Form.Item name="lat" noStyle>
              <InputNumber
                min={-90}
                max={90}
                step={0.000001}
                disabled={disabled}
                placeholder={t('member.lat')}
                style={{ width: '45%' }}
                data-testid="member-lat"
              />
            </Form.Item>
            <Form.Item name="lon" noStyle>
              <InputNumber
                min={-180}
                max={180}
                step={0.000001}
                disabled={disabled}
                placeholder={t('member.lon')}
                style={{ width: '45%' }}
                data-testid="member-lon"
              />
            </Form.Item>
            <Tooltip title={t('member.resolve')}>
              <Button
                icon={<AimOutlined />}
                onClick={resolve}
                loading={reverse.isPending}
                disabled={disabled || typeof lat !== 'number' || typeof lon !== 'number'}
                aria-label={t('member.resolve')}
              />
            </Tooltip>
          </Space.Compact>
        </Form.Item>
      </Col>
    </>
  )
}
