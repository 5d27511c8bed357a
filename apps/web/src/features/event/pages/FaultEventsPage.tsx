import { EventsPage } from '../components/EventsPage'

/** /eventManagement/fault: 故障事件. */
export function FaultEventsPage() {
  return <EventsPage kind="fault" />
}
