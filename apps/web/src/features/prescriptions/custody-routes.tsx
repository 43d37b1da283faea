// The pages of the pharmacy and prescriptions areas (spec §2, decisions §5). Loaded outside /admin: no admin
// code here.
import { useParams } from 'react-router';
import { CustodyQueue } from './custody/custody-queue.tsx';
import { WritePrescription } from './custody/write-prescription.tsx';

/** A new id is a new queue: its selection starts empty. */
const keyed = () => useParams().id ?? '';

export function PharmacyWaitingPage() {
  return <CustodyQueue key={keyed()} area="pharmacy" tab="waiting" />;
}
export function PharmacyReadyPage() {
  return <CustodyQueue key={keyed()} area="pharmacy" tab="ready" />;
}
export function PharmacyPickedUpPage() {
  return <CustodyQueue key={keyed()} area="pharmacy" tab="picked-up" />;
}
export function PrescriptionsWaitingPage() {
  return <CustodyQueue key={keyed()} area="prescriptions" tab="waiting" />;
}
export function PrescriptionsPickedUpPage() {
  return <CustodyQueue key={keyed()} area="prescriptions" tab="picked-up" />;
}
export function PrescriptionsWrittenPage() {
  return <CustodyQueue area="prescriptions" tab="written" />;
}
export function PrescriptionsMinePage() {
  return <CustodyQueue area="prescriptions" tab="mine" />;
}
export function PrescriptionsWritePage() {
  return <WritePrescription />;
}
