package io.regina.worker;

import io.regina.client.Message;

/** The job a {@link JobListener} hears about: its kind and its delivery ({@code message.attempts()} is the attempt). */
public record JobEvent(String kind, Message message) {
}
