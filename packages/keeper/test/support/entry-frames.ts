// Entries to their encoded frames and back, as a backend's Scan and Apply do
// (core's entry-frames.ts): for fakes of a backend that keep decoded entries.
import {
  applyRequestOfFrames,
  type Entry,
  type EntryFrame,
  entryFromWire,
  entryToWire,
  loadProtocol,
  splitEntryFrames,
} from "@binring/core";

export function framesOf(entries: readonly Entry[]): EntryFrame[] {
  const { requestSerialize } = loadProtocol().StorageControl.service.Apply;
  return splitEntryFrames(requestSerialize({ entries: entries.map(entryToWire) }));
}

export function entriesOf(frames: readonly EntryFrame[]): Entry[] {
  const { requestDeserialize } = loadProtocol().StorageControl.service.Apply;
  return requestDeserialize(applyRequestOfFrames(frames, 0n)).entries.map((entry) => entryFromWire(entry));
}
