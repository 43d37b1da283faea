// /command-center/{userId}: one person of the care team's centers (decision 102), composed of the command
// centers' page, the alerts feature's entries (acted on through the command center's calls) and the IoT
// feature's chart, read through the care team's calls.
import { commandCenterEndpoints } from '@careplane/shared/command-centers/command-centers.contract';
import { AlertEntry } from '@/features/alerts/components/alert-entry.tsx';
import { CareTeamPatient } from '@/features/command-centers/care-team-patient.tsx';
import { readingQueries } from '@/features/iot/api/iot.queries.ts';
import { ReadingsChart } from '@/features/iot/components/iot-readings.tsx';

/**
 * The care team's readings: its command center's calls, under the key live events refresh, and read again every
 * 30 s (a supervisor's stream does not carry readings: a change of readings names no device).
 */
const careTeamReadings = readingQueries(
  ['command-center', 'iot-device-data'],
  { list: commandCenterEndpoints.readings, summary: commandCenterEndpoints.readingsSummary },
  { refetchInterval: 30_000 },
);

export default function CareTeamPatientPage({ userId }: { userId: string }) {
  return (
    <CareTeamPatient
      userId={userId}
      alertItem={(alert) => <AlertEntry alert={alert} via="commandCenter" compact />}
      readings={(device) => <ReadingsChart device={device} queries={careTeamReadings} />}
    />
  );
}
