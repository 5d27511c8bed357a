import { EventsPage } from '../components/EventsPage'

/** /eventManagement/locationOffset: 位置偏移事件. */
export function LocationOffsetEventsPage() {
  return <EventsPage kind="offset" />
}
