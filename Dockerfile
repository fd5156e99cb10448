# Build: mvn -B -DskipTests package && docker build -t regina .
FROM eclipse-temurin:17-jre
WORKDIR /app
COPY target/regina-*.jar /app/regina.jar
VOLUME /data
EXPOSE 6632 6642
ENV REGINA_DATA_DIR=/data
ENTRYPOINT ["java", "-jar", "/app/regina.jar"]
