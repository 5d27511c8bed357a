import type { Lang } from '@aed/contracts'
import { dictLabel } from '@aed/contracts/constants'
import type {
  DetectRow,
  EarlyWarnRow,
  FaultRow,
  InspectRow,
  OffsetRow,
  UsageLogRow,
} from '@aed/contracts/device-detail'
import { pick } from '../../lib/pick.ts'
import type {
  DetectionRecord,
  EventRecord,
  InspectionRecord,
  UsageLogRecord,
} from './device-detail.repository.ts'

const iso = (d: Date | null) => (d ? d.toISOString() : null)

export function presentDetection(r: DetectionRecord, lang: Lang): DetectRow {
  return {
    id: r.id,
    report_type: r.report_type,
    report_type_text: dictLabel('report_type', r.report_type, lang),
    check_result: r.check_result,
    fault_codes: r.fault_codes,
    battery: r.battery,
    check_time: r.check_time.toISOString(),
  }
}

export function presentWarning(r: EventRecord): EarlyWarnRow {
  return {
    id: r.id,
    event_type: r.code,
    event_code: r.code,
    content: r.content,
    event_time: r.event_time.toISOString(),
    invalid_time: iso(r.closed_at),
  }
}

export function presentFault(r: EventRecord, lang: Lang): FaultRow {
  return {
    id: r.id,
    report_type: r.report_type,
    report_type_text: r.report_type === null ? null : dictLabel('report_type', r.report_type, lang),
    fault_code: r.code,
    fault_desc: r.content,
    check_time: r.event_time.toISOString(),
    recover_time: iso(r.closed_at),
    handler_name: r.handler_name,
    handle_note: r.handle_note,
    handle_time: iso(r.handle_time),
  }
}

export function presentOffset(r: EventRecord): OffsetRow {
  return {
    ...pick(r, ['id', 'install_location', 'offset_location', 'offset_lat', 'offset_lon', 'offset_distance']),
    event_time: r.event_time.toISOString(),
    recover_time: iso(r.closed_at),
  }
}

export function presentInspection(r: InspectionRecord): InspectRow {
  return {
    id: r.id,
    inspect_status: r.inspect_status,
    process_content: r.process_content,
    inspector_name: r.inspector_name,
    inspect_time: r.inspect_time.toISOString(),
    imgs: r.imgs,
  }
}

export function presentUsageLog(r: UsageLogRecord): UsageLogRow {
  return {
    id: r.id,
    rescue_event_id: r.rescue_event_id,
    event_desc: r.event_desc,
    event_para: r.event_para,
    event_time: r.event_time.toISOString(),
  }
}
