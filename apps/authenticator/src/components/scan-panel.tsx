// Reading a code: the camera with the browser's barcode detector where there is one, and always a field to
// paste or type the link (or an enrollment code) instead.
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>;
}
type BarcodeDetectorClass = new (options: { formats: string[] }) => BarcodeDetectorLike;

const detectorClass = () =>
  (window as unknown as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector ?? null;
export const canScan = () =>
  detectorClass() !== null && typeof navigator.mediaDevices?.getUserMedia === 'function';

interface Props {
  onResult: (text: string) => void;
  pasteLabel: string;
  pasteDescription: string;
  submitLabel: string;
  scanLabel?: string;
  /** Leave out the note that the camera cannot read codes (when another panel already says it). */
  quietWithoutCamera?: boolean;
}

export function ScanPanel({
  onResult,
  pasteLabel,
  pasteDescription,
  submitLabel,
  scanLabel,
  quietWithoutCamera = false,
}: Props) {
  const { t } = useTranslation();
  const [scanning, setScanning] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [value, setValue] = useState('');
  const video = useRef<HTMLVideoElement>(null);
  const scanSupported = canScan();

  useEffect(() => {
    if (!scanning) return;
    const Detector = detectorClass();
    if (!Detector) return;
    let stream: MediaStream | null = null;
    let timer = 0;
    let stopped = false;
    const stop = () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
    const start = async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
        if (stopped || !video.current) return stop();
        video.current.srcObject = stream;
        await video.current.play();
        const detector = new Detector({ formats: ['qr_code'] });
        const tick = async () => {
          if (stopped || !video.current) return;
          const found = await detector.detect(video.current).catch(() => []);
          const first = found[0]?.rawValue;
          if (first) {
            stop();
            setScanning(false);
            onResult(first);
          } else {
            timer = window.setTimeout(() => void tick(), 250);
          }
        };
        await tick();
      } catch {
        stop();
        setScanning(false);
        setProblem(t('scan.cameraFailed'));
      }
    };
    void start();
    return stop;
  }, [scanning, onResult, t]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = value.trim();
    if (!text) return;
    setValue('');
    onResult(text);
  };

  return (
    <Stack gap="sm">
      {scanSupported ? (
        scanning ? (
          <Stack gap="xs">
            <video
              ref={video}
              muted
              playsInline
              aria-label={t('scan.cameraView')}
              style={{ width: '100%', borderRadius: 8, background: '#000' }}
            />
            <Button variant="default" size="md" onClick={() => setScanning(false)}>
              {t('scan.stopCamera')}
            </Button>
          </Stack>
        ) : (
          <Button
            size="lg"
            onClick={() => {
              setProblem(null);
              setScanning(true);
            }}
          >
            {scanLabel ?? t('scan.scanQr')}
          </Button>
        )
      ) : quietWithoutCamera ? null : (
        <Text size="sm" c="dimmed">
          {t('scan.noCamera')}
        </Text>
      )}
      {problem && (
        <Alert color="orange" role="alert">
          {problem}
        </Alert>
      )}
      <form onSubmit={submit}>
        <Stack gap="xs">
          <TextInput
            label={pasteLabel}
            description={pasteDescription}
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            size="md"
          />
          <Button type="submit" variant="light" size="md" disabled={!value.trim()}>
            {submitLabel}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
