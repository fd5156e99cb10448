package io.regina.api;

import io.regina.api.dto.TransactionRequest;
import io.regina.api.dto.TransactionResponse;
import io.regina.queue.Command;
import io.regina.queue.Result;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.List;

/** {@code POST /api/v1/transaction} (routed by {@link HotRoutes}): pushes and acks as one command, all or nothing. */
@Component
class TransactionController {
    private final Broker broker;
    private final MemoryWatermark watermark;
    private final DiskReserve disk;
    private final ProducerStamp stamp;

    TransactionController(Broker broker, MemoryWatermark watermark, DiskReserve disk, ProducerStamp stamp) {
        this.broker = broker;
        this.watermark = watermark;
        this.disk = disk;
        this.stamp = stamp;
    }

    Mono<TransactionResponse> transaction(TransactionRequest body) {
        List<TransactionRequest.Operation> operations = body.operations();
        if (operations == null || operations.isEmpty()) {
            throw ApiException.badRequest("'operations' is required: a non-empty array of {type:\"push\", items} "
                    + "or {type:\"ack\", transactionId, partitionId}");
        }
        return stamp.apply(producerSub -> transaction(body, operations, producerSub));
    }

    private Mono<TransactionResponse> transaction(TransactionRequest body, List<TransactionRequest.Operation> operations,
                                                  String producerSub) {
        List<Command.TxOperation> parsed = new ArrayList<>(operations.size());
        boolean pushes = false;
        for (int index = 0; index < operations.size(); index++) {
            try {
                Command.TxOperation operation = operation(operations.get(index), producerSub);
                pushes |= operation instanceof Command.TxPush;
                parsed.add(operation);
            } catch (ApiException e) {
                throw ApiException.badRequest("operations[" + index + "]: " + e.getMessage());
            }
        }
        if (pushes) {
            watermark.checkPush();
            disk.checkPush();
        }
        String transactionId = UuidV7.next();
        List<String> requiredLeases = FieldChecks.strings(body.requiredLeases(), "requiredLeases");
        return broker.submit(new Command.Transaction(parsed, requiredLeases), Result.TransactionDone.class)
                .map(done -> answer(transactionId, done));
    }

    private static Command.TxOperation operation(TransactionRequest.Operation operation, String producerSub) {
        if (operation == null) {
            throw JsonBodies.notAnObject("operation");
        }
        if ("push".equals(operation.type())) {
            if (operation.items() == null) {
                throw ApiException.badRequest("a push operation needs 'items'");
            }
            return new Command.TxPush(PushItems.read(operation.items(), producerSub));
        }
        if ("ack".equals(operation.type())) {
            return new Command.TxAck(AckItems.read(operation.ack(), null));
        }
        throw ApiException.badRequest("'type' must be \"push\" or \"ack\"");
    }

    private static TransactionResponse answer(String transactionId, Result.TransactionDone done) {
        List<TransactionResponse.Result> results = new ArrayList<>(done.results().size());
        for (Result.TxOutcome o : done.results()) {
            results.add("push".equals(o.type())
                    ? new TransactionResponse.PushResult(o.index(), o.type(), o.success(), o.transactionId(),
                            o.messageId(), o.partitionId(), o.queue())
                    : new TransactionResponse.AckResult(o.index(), o.type(), o.success(), o.transactionId(),
                            o.error(), o.dlq()));
        }
        return new TransactionResponse(transactionId, done.success(), done.success() ? null : done.error(), results);
    }
}
